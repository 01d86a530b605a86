package dev.puddle.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README's link to the latest report, which the runner moves to the report it has just written
 * into the checkout's results folder: the link is generated, like every figure of the report.
 */
public final class LatestLink {
  private static final Pattern LINK =
      Pattern.compile("\\[latest run: [^\\]]*\\]\\(docs/benchmarks/results/[^)]*\\)");

  private LatestLink() {}

  /**
   * Points the README's {@code [latest run: …](docs/benchmarks/results/….md)} at {@code report};
   * returns whether the README had such a link.
   */
  public static boolean update(Path project, Path report) throws IOException {
    Path readme = project.resolve("README.md");
    String text = Files.readString(readme);
    String name = report.getFileName().toString();
    String link =
        "[latest run: "
            + name.replaceFirst("\\.md$", "")
            + "](docs/benchmarks/results/"
            + name
            + ")";
    Matcher matcher = LINK.matcher(text);
    if (!matcher.find()) {
      return false;
    }
    Files.writeString(readme, matcher.replaceFirst(Matcher.quoteReplacement(link)));
    return true;
  }
}
