package dev.puddle.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL statements and S3 requests per operation, as {@code OperationCostTest} (module {@code local})
 * counted them on the real PostgreSQL and S3 protocol and printed them: quoted from its last output
 * rather than measured again.
 *
 * @param source the test's output file, if it exists
 * @param written when that file was written
 * @param lines its {@code [cost]} lines
 */
public record OperationCosts(Path source, Optional<Instant> written, List<String> lines) {
  public static final String COMMAND =
      "./mvnw -q -B -pl local -am test -Dtest=OperationCostTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false";

  private static final String MARKER = "[cost]";
  private static final Pattern S3_REQUESTS = Pattern.compile("S3 requests=\\d+:(.*)");
  private static final Pattern KIND_COUNT = Pattern.compile("([A-Z]+)=(\\d+)");

  public static OperationCosts read(Path projectDirectory) {
    Path source =
        projectDirectory.resolve(
            "local/target/surefire-reports/dev.puddle.local.OperationCostTest-output.txt");
    if (!Files.isRegularFile(source)) {
      return new OperationCosts(source, Optional.empty(), List.of());
    }
    try {
      List<String> lines =
          Files.readAllLines(source).stream()
              .filter(line -> line.contains(MARKER))
              .map(line -> line.substring(line.indexOf(MARKER) + MARKER.length()).strip())
              .toList();
      return new OperationCosts(
          source, Optional.of(Files.getLastModifiedTime(source).toInstant()), lines);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * S3 requests by kind (GET, HEAD, PUT, DELETE, LIST…) of the first line whose operation starts
   * with {@code operation}, e.g. {@code loadTable} or {@code commit}.
   */
  public Optional<Map<String, Integer>> s3Requests(String operation) {
    return lines.stream()
        .filter(line -> line.startsWith(operation))
        .findFirst()
        .flatMap(
            line -> {
              Matcher s3 = S3_REQUESTS.matcher(line);
              if (!s3.find()) {
                return Optional.empty();
              }
              Map<String, Integer> kinds = new TreeMap<>();
              Matcher kind = KIND_COUNT.matcher(s3.group(1));
              while (kind.find()) {
                kinds.put(kind.group(1), Integer.parseInt(kind.group(2)));
              }
              return Optional.of(kinds);
            });
  }
}
