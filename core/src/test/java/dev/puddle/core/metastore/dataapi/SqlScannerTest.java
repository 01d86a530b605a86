package dev.puddle.core.metastore.dataapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlScannerTest {

  @Test
  void placeholdersAreNumberedOutsideLiteralsCommentsAndQuotedNames() {
    String sql =
        "SELECT '?', \"a?\", E'it\\'s ?', $$ ? $$, $tag$ ? $tag$ -- ?\n"
            + "/* ? /* nested ? */ ? */ FROM t WHERE a = ? AND b::text = ? AND c = $1";
    assertThat(SqlScanner.placeholders(sql)).isEqualTo(2);
    assertThat(SqlScanner.replacePlaceholders(sql, i -> ":p" + i))
        .endsWith("WHERE a = :p1 AND b::text = :p2 AND c = $1");
  }

  @Test
  void namedParametersAreFoundButCastsAreNot() {
    List<String> names = new ArrayList<>();
    SqlScanner.scan(
        "SELECT :a::jsonb, x::text, ':no', CAST(:b_2 AS integer)",
        new SqlScanner.Visitor() {
          @Override
          public void text(String sql, int start, int end) {}

          @Override
          public void token(SqlScanner.Kind kind, String token) {
            if (kind == SqlScanner.Kind.NAMED) {
              names.add(token);
            }
          }
        });
    assertThat(names).containsExactly(":a", ":b_2");
  }

  @Test
  void scriptsSplitAtSemicolonsThatEndStatements() {
    String script =
        "-- header; comment\n"
            + "CREATE TABLE a (x text DEFAULT ';');\n"
            + "/* ; */\n"
            + "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;\n"
            + "  ;\n"
            + "-- only a comment\n";
    assertThat(SqlScanner.statements(script))
        .containsExactly(
            "-- header; comment\nCREATE TABLE a (x text DEFAULT ';')",
            "/* ; */\nCREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql");
  }

  @Test
  void queriesAreToldFromOtherStatements() {
    assertThat(SqlScanner.isQuery("  -- c\n (SELECT 1)")).isTrue();
    assertThat(SqlScanner.isQuery("with x as (select 1) select * from x")).isTrue();
    assertThat(SqlScanner.isQuery("/* select */ UPDATE t SET a = 1")).isFalse();
    assertThat(SqlScanner.isQuery("INSERT INTO t VALUES (1)")).isFalse();
  }

  @Test
  void aWithIsSplitBeforeItsStatement() {
    SqlScanner.With with =
        SqlScanner.splitWith(
            "WITH a AS MATERIALIZED (SELECT 1 AS x), \"select\" AS (DELETE FROM t RETURNING *)\n"
                + " -- SELECT in a comment\n"
                + " UPDATE u SET v = 'SELECT' FROM a RETURNING v");
    assertThat(with.tableExpressions())
        .isEqualTo(
            "WITH a AS MATERIALIZED (SELECT 1 AS x), \"select\" AS (DELETE FROM t RETURNING *)\n"
                + " -- SELECT in a comment");
    assertThat(with.statement()).isEqualTo("UPDATE u SET v = 'SELECT' FROM a RETURNING v");
    assertThat(SqlScanner.splitWith("SELECT 1")).isNull();
  }
}
