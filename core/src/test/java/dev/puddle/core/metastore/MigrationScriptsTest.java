package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The expand-only rule of {@code docs/operations.md#upgrade-and-rollback}: while a deploy replaces
 * the functions, the previous release still serves from the migrated schema, so a script may add
 * but never take away or change what an earlier release reads or writes. A statement that drops a
 * column, a table or a function of an earlier script, renames anything, changes a column's type,
 * makes a column NOT NULL, or adds a NOT NULL column without a default fails this test, unless the
 * comment lines just before it say why it is safe: {@code -- contract: <justification>} (the
 * "contract" step of expand/contract, a release after the one that stopped using what it removes).
 */
class MigrationScriptsTest {
  private static final Path FOLDER =
      Path.of("src/main/resources/dev/puddle/core/metastore/migrations");

  /** What takes away or changes what an earlier release uses, by the name the test reports. */
  private static final List<Rule> RULES =
      List.of(
          new Rule("DROP COLUMN", Pattern.compile("\\bDROP\\s+COLUMN\\b")),
          new Rule("RENAME", Pattern.compile("\\bRENAME\\b")),
          new Rule(
              "ALTER COLUMN ... TYPE",
              Pattern.compile("\\bALTER\\s+(COLUMN\\s+)?\\S+\\s+(SET\\s+DATA\\s+)?TYPE\\b")),
          new Rule("SET NOT NULL", Pattern.compile("\\bSET\\s+NOT\\s+NULL\\b")));

  private static final Pattern DROP_OBJECT =
      Pattern.compile(
          "\\bDROP\\s+(TABLE|VIEW|FUNCTION)\\s+(IF\\s+EXISTS\\s+)?([a-z_][a-z0-9_]*)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern CREATE_OBJECT =
      Pattern.compile(
          "\\bCREATE\\s+(OR\\s+REPLACE\\s+)?(TABLE|VIEW|FUNCTION)\\s+(IF\\s+NOT\\s+EXISTS\\s+)?"
              + "([a-z_][a-z0-9_]*)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern DOLLAR_QUOTED =
      Pattern.compile("\\$([a-z_]*)\\$.*?\\$\\1\\$", Pattern.DOTALL);
  private static final Pattern DOLLAR_TAG = Pattern.compile("\\$([a-z_]*)\\$");

  private record Rule(String name, Pattern pattern) {}

  /** A statement of a script: its text without comments, and the comment lines before it. */
  private record Statement(String script, String sql, List<String> comments) {
    boolean justified() {
      return comments.stream().anyMatch(line -> line.matches("--\\s*contract:\\s*\\S.*"));
    }
  }

  @Test
  void everyScriptOnlyExpandsTheSchemaUnlessAStatementSaysWhyItMayContractIt() throws IOException {
    List<String> violations = new ArrayList<>();
    for (String script : Migrations.SCRIPTS) {
      violations.addAll(violations(script, Files.readString(FOLDER.resolve(script))));
    }
    assertThat(violations).as("statements that break the release before them").isEmpty();
  }

  @Test
  void theRuleFindsWhatBreaksAnOlderReleaseAndHonoursAJustification() {
    String script =
        """
        CREATE TABLE scratch (id integer);
        DROP TABLE scratch;
        ALTER TABLE purge_job DROP COLUMN last_error;
        ALTER TABLE namespace RENAME COLUMN levels TO path;
        ALTER TABLE principal ALTER COLUMN name TYPE varchar(64);
        ALTER TABLE realm ADD COLUMN label text NOT NULL;
        ALTER TABLE realm ADD COLUMN kind text NOT NULL DEFAULT 'plain', ADD COLUMN note text;
        DROP TABLE signing_key;
        DROP FUNCTION caller_grants;
        -- contract: nothing reads it since V12, and V12's release is the oldest still deployable
        ALTER TABLE warehouse DROP COLUMN properties;
        CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $$ BEGIN DROP TABLE x; END $$;
        """;

    assertThat(violations("V99__test.sql", script))
        .containsExactly(
            "V99__test.sql: DROP COLUMN: ALTER TABLE purge_job DROP COLUMN last_error",
            "V99__test.sql: RENAME: ALTER TABLE namespace RENAME COLUMN levels TO path",
            "V99__test.sql: ALTER COLUMN ... TYPE: ALTER TABLE principal ALTER COLUMN name TYPE"
                + " varchar(64)",
            "V99__test.sql: ADD COLUMN ... NOT NULL without DEFAULT: ALTER TABLE realm ADD COLUMN"
                + " label text NOT NULL",
            "V99__test.sql: DROP TABLE of an earlier script: DROP TABLE signing_key",
            "V99__test.sql: DROP FUNCTION of an earlier script: DROP FUNCTION caller_grants");
  }

  private static List<String> violations(String script, String text) {
    List<String> found = new ArrayList<>();
    Set<String> createdHere = new HashSet<>();
    for (Statement statement : statements(script, text)) {
      Matcher created = CREATE_OBJECT.matcher(statement.sql());
      if (created.find()) {
        createdHere.add(created.group(4).toLowerCase(Locale.ROOT));
      }
      if (statement.justified()) {
        continue;
      }
      // function bodies run later, under their own rules: only the statement itself counts
      String sql = DOLLAR_QUOTED.matcher(statement.sql()).replaceAll("\\$\\$ \\$\\$");
      String upper = sql.toUpperCase(Locale.ROOT);
      for (Rule rule : RULES) {
        if (rule.pattern().matcher(upper).find()) {
          found.add(script + ": " + rule.name() + ": " + statement.sql());
        }
      }
      if (addsNotNullWithoutDefault(upper)) {
        found.add(script + ": ADD COLUMN ... NOT NULL without DEFAULT: " + statement.sql());
      }
      Matcher dropped = DROP_OBJECT.matcher(sql);
      while (dropped.find()) {
        if (!createdHere.contains(dropped.group(3).toLowerCase(Locale.ROOT))) {
          found.add(
              script
                  + ": DROP "
                  + dropped.group(1).toUpperCase(Locale.ROOT)
                  + " of an earlier script: "
                  + statement.sql());
        }
      }
    }
    return found;
  }

  /** One ADD COLUMN clause of the statement is NOT NULL and has no DEFAULT. */
  private static boolean addsNotNullWithoutDefault(String upper) {
    String[] clauses = upper.split("\\bADD\\s+COLUMN\\b");
    for (int i = 1; i < clauses.length; i++) {
      // a clause runs to the next top-level comma; CHECK (...) and DEFAULT f(...) hold their own
      String clause = firstTopLevel(clauses[i]);
      if (clause.matches("(?s).*\\bNOT\\s+NULL\\b.*") && !clause.matches("(?s).*\\bDEFAULT\\b.*")) {
        return true;
      }
    }
    return false;
  }

  private static String firstTopLevel(String text) {
    int depth = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        return text.substring(0, i);
      }
    }
    return text;
  }

  /**
   * The statements of a script, split at semicolons outside dollar-quoted bodies and string
   * literals, each with the comment lines that stand before it.
   */
  private static List<Statement> statements(String script, String text) {
    List<Statement> statements = new ArrayList<>();
    List<String> comments = new ArrayList<>();
    StringBuilder sql = new StringBuilder();
    String dollarTag = null;
    for (String line : text.split("\n")) {
      String trimmed = line.strip();
      if (dollarTag == null && sql.isEmpty() && trimmed.startsWith("--")) {
        comments.add(trimmed);
        continue;
      }
      if (dollarTag == null && trimmed.isEmpty() && sql.isEmpty()) {
        comments.clear();
        continue;
      }
      String code = dollarTag == null ? stripComment(line) : line;
      sql.append(code).append('\n');
      Matcher tags = DOLLAR_TAG.matcher(code);
      while (tags.find()) {
        if (dollarTag == null) {
          dollarTag = tags.group(1);
        } else if (dollarTag.equals(tags.group(1))) {
          dollarTag = null;
        }
      }
      if (dollarTag == null && code.strip().endsWith(";")) {
        String statement = sql.toString().strip();
        statement = statement.substring(0, statement.length() - 1).replaceAll("\\s+", " ");
        statements.add(new Statement(script, statement, List.copyOf(comments)));
        comments.clear();
        sql.setLength(0);
      }
    }
    return statements;
  }

  /** The line without a trailing {@code --} comment outside a string literal. */
  private static String stripComment(String line) {
    boolean quoted = false;
    for (int i = 0; i < line.length() - 1; i++) {
      char c = line.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      } else if (!quoted && c == '-' && line.charAt(i + 1) == '-') {
        return line.substring(0, i);
      }
    }
    return line;
  }
}
