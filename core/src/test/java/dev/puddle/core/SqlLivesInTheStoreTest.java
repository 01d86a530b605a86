package dev.puddle.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * All SQL lives in the store layer, {@code dev.puddle.core.metastore} and its subpackages: no other
 * main class of core opens a statement or spells a query, so a reader finds every statement, and
 * every schema change, in one package.
 */
class SqlLivesInTheStoreTest {
  private static final Path SOURCES = Path.of("src/main/java");
  private static final Path STORE = Path.of("src/main/java/dev/puddle/core/metastore");

  /** Files outside the store that may still hold SQL, each with the reason: none. */
  private static final Set<Path> ALLOWED = Set.of();

  private static final Pattern STATEMENT =
      Pattern.compile("\\b(prepareStatement|createStatement)\\(");
  private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
  private static final Pattern TEXT_BLOCK =
      Pattern.compile("\"\"\"\\s*\\n(.*?)\"\"\"", Pattern.DOTALL);
  private static final Pattern QUERY =
      Pattern.compile(
          "^\\s*(SELECT\\s|INSERT\\s+INTO\\s|DELETE\\s+FROM\\s|UPDATE\\s+\\S+\\s+SET\\s"
              + "|WITH\\s+\\w+\\s+AS\\s*\\()");

  @Test
  void noMainClassOutsideTheStoreHoldsSql() throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        if (!file.startsWith(STORE) && !ALLOWED.contains(file)) {
          found.addAll(sql(file.toString(), Files.readString(file)));
        }
      }
    }
    assertThat(found).as("SQL outside dev.puddle.core.metastore").isEmpty();
  }

  @Test
  void theAllowedFilesStillExist() {
    // an entry whose file moved or went away is stale: the allow-list must shrink with the code
    assertThat(ALLOWED).allMatch(Files::exists);
  }

  @Test
  void theCheckRecognizesStatementsAndQueries() {
    String source =
        """
        class Leak {
          void run(java.sql.Connection c) throws Exception {
            c.prepareStatement("SELECT id FROM namespace WHERE warehouse_id = ?");
            c.createStatement().execute("UPDATE purge_job SET state = 'queued'");
            String a = "INSERT INTO realm (id) VALUES (?)", b = " DELETE FROM principal";
            String message = "Select a warehouse"; // prose, not SQL
          }
        }
        """;
    assertThat(sql("Leak.java", source))
        .hasSize(6)
        .anyMatch(hit -> hit.contains("prepareStatement"))
        .anyMatch(hit -> hit.contains("createStatement"))
        .anyMatch(hit -> hit.contains("SELECT id"))
        .anyMatch(hit -> hit.contains("UPDATE purge_job"))
        .anyMatch(hit -> hit.contains("INSERT INTO realm"))
        .anyMatch(hit -> hit.contains("DELETE FROM principal"));
  }

  /** Where a source file opens a statement or spells a query, as file:line: text. */
  private static List<String> sql(String file, String source) {
    List<String> hits = new ArrayList<>();
    String[] lines = source.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (STATEMENT.matcher(line).find()) {
        hits.add(file + ":" + (i + 1) + ": " + line.strip());
      }
      Matcher literal = LITERAL.matcher(line);
      while (literal.find()) {
        if (QUERY.matcher(literal.group(1)).find()) {
          hits.add(file + ":" + (i + 1) + ": \"" + literal.group(1) + "\"");
        }
      }
    }
    Matcher block = TEXT_BLOCK.matcher(source);
    while (block.find()) {
      if (QUERY.matcher(block.group(1)).find()) {
        hits.add(file + ": text block: " + block.group(1).strip().lines().findFirst().orElse(""));
      }
    }
    return hits;
  }
}
