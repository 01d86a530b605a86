package dev.puddle.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * SQL statements and S3 requests per operation, as {@code OperationCostTest} (module {@code local})
 * counted them on the real PostgreSQL and S3 protocol and printed them: quoted from its last output
 * rather than measured again, so the report says plainly when that output is missing, came from a
 * failed run, or is older than the code it describes.
 *
 * @param source the test's output file
 * @param written when that file was written, if it exists
 * @param lines its {@code [cost]} lines
 * @param problems why the lines may not describe the code measured (none when they do)
 */
public record OperationCosts(
    Path source, Optional<Instant> written, List<String> lines, List<String> problems) {
  public static final String COMMAND =
      "./mvnw -q -B -pl local -am test -Dtest=OperationCostTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false";

  private static final String REPORTS = "local/target/surefire-reports/";
  private static final String OUTPUT = REPORTS + "dev.puddle.local.OperationCostTest-output.txt";
  private static final String SUMMARY = REPORTS + "TEST-dev.puddle.local.OperationCostTest.xml";

  /** The sources whose change can change the counts: the catalog, its handlers, the test. */
  private static final List<String> SOURCES =
      List.of("core/src/main", "functions/src/main", "local/src/main", "local/src/test");

  private static final String MARKER = "[cost]";
  private static final Pattern S3_REQUESTS = Pattern.compile("S3 requests=\\d+:(.*)");
  private static final Pattern KIND_COUNT = Pattern.compile("([A-Z]+)=(\\d+)");
  private static final Pattern FAILED =
      Pattern.compile("<testsuite\\b[^>]*\\b(?:failures|errors)=\"([1-9]\\d*)\"");

  public static OperationCosts read(Path projectDirectory) {
    Path source = projectDirectory.resolve(OUTPUT);
    if (!Files.isRegularFile(source)) {
      return new OperationCosts(
          source, Optional.empty(), List.of(), List.of("there is no output at " + OUTPUT));
    }
    try {
      List<String> lines =
          Files.readAllLines(source).stream()
              .filter(line -> line.contains(MARKER))
              .map(line -> line.substring(line.indexOf(MARKER) + MARKER.length()).strip())
              .toList();
      Instant written = Files.getLastModifiedTime(source).toInstant();
      List<String> problems = new ArrayList<>();
      if (lines.isEmpty()) {
        problems.add(OUTPUT + " holds no " + MARKER + " line");
      }
      Path summary = projectDirectory.resolve(SUMMARY);
      if (Files.isRegularFile(summary) && FAILED.matcher(Files.readString(summary)).find()) {
        problems.add("the test failed in the run that wrote it (" + SUMMARY + ")");
      }
      newestSourceAfter(projectDirectory, written)
          .ifPresent(
              newer ->
                  problems.add(
                      "it is older than the code: "
                          + projectDirectory.relativize(newer)
                          + " changed after it was written"));
      return new OperationCosts(source, Optional.of(written), lines, List.copyOf(problems));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether the lines describe the code as it is: present, from a passing run, not stale. */
  public boolean current() {
    return problems.isEmpty();
  }

  /** The most recently changed source file, if it changed after {@code written}. */
  private static Optional<Path> newestSourceAfter(Path project, Instant written)
      throws IOException {
    Path newest = null;
    Instant newestTime = written;
    for (String folder : SOURCES) {
      Path root = project.resolve(folder);
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          Instant modified = Files.getLastModifiedTime(file).toInstant();
          if (modified.isAfter(newestTime)) {
            newest = file;
            newestTime = modified;
          }
        }
      }
    }
    return Optional.ofNullable(newest);
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
