package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Migrations;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.RealmBootstrap;
import dev.puddle.functions.CatalogHandler;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.Driver;

/**
 * Everything Puddle sends to PostgreSQL in {@code proxy} mode, read off the wire as RDS Proxy reads
 * it ({@link PostgresWireRecorder}), against the forms AWS names as pinning a session ({@code
 * docs/operations.md#rds-proxy-and-pinning}): the migrations, a representative workload
 * (namespaces, tables, commits, loads, listings, a rename, a view, a drop with purge), and the
 * purge function and its sweep. A new statement that would pin fails here, naming it.
 */
class PinningTest {
  /**
   * The startup parameters pgjdbc sends and Puddle accepts: fixed for every connection, none a
   * command-line option (which RDS Proxy refuses).
   */
  private static final Set<String> STARTUP_PARAMETERS =
      Set.of(
          "user",
          "database",
          "client_encoding",
          "DateStyle",
          "TimeZone",
          "extra_float_digits",
          "application_name");

  /** The forms that pin, as AWS lists them for PostgreSQL; each statement is checked alone. */
  private static final Map<String, Pattern> RULES =
      Map.of(
          "a SET or RESET command (SET LOCAL included)",
          rule("^(SET|RESET)\\b"),
          "set_config",
          rule("\\bset_config\\s*\\("),
          "a prepared statement, or discarding session state",
          rule("^(PREPARE|EXECUTE|DEALLOCATE|DISCARD)\\b"),
          "listening on a notification channel",
          rule("^(UN)?LISTEN\\b"),
          "loading a library module",
          rule("^LOAD\\b"),
          "a temporary table, sequence or view",
          rule("^CREATE\\s+(OR\\s+REPLACE\\s+)?((GLOBAL|LOCAL)\\s+)?TEMP(ORARY)?\\b"),
          "a declared cursor",
          rule(
              "^DECLARE\\s+\\S+\\s+(BINARY\\s+|(A|IN)SENSITIVE\\s+|(NO\\s+)?SCROLL\\s+)*CURSOR\\b"),
          "a session-level advisory lock (transaction-level ones end with the transaction)",
          rule("\\bpg_(try_)?advisory_(un)?lock(_shared)?\\s*\\("),
          "a sequence function",
          rule("\\b(nextval|setval|currval|lastval)\\s*\\("));

  /** "Any statement with a text size greater than 16 KB causes the proxy to pin the session." */
  private static final int MAX_TEXT_BYTES = 16 * 1024;

  private static Pattern rule(String regex) {
    return Pattern.compile(regex, Pattern.CASE_INSENSITIVE);
  }

  private static final Pattern DOLLAR_QUOTED =
      Pattern.compile("\\$([A-Za-z_]*)\\$.*?\\$\\1\\$", Pattern.DOTALL);
  private static final Pattern COMMENTS = Pattern.compile("--[^\\n]*|/\\*.*?\\*/", Pattern.DOTALL);
  private static final Pattern QUOTED = Pattern.compile("'(?:[^']|'')*'");

  private static PostgresWireRecorder recorder;
  private static String jdbcUrl;

  @BeforeAll
  static void startRecorder() {
    String name = "pinning_" + System.nanoTime();
    TestTwin.get()
        .database()
        .autocommit(
            connection -> {
              try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + name);
              }
              return null;
            });
    recorder = PostgresWireRecorder.start(twinPort());
    jdbcUrl =
        TestTwin.get()
            .jdbcUrl()
            .replaceFirst(
                "//[^/]+/postgres\\?", "//127.0.0.1:" + recorder.port() + "/" + name + "?");
  }

  @AfterAll
  static void stopRecorder() {
    recorder.close();
  }

  @Test
  void nothingPuddleSendsInProxyModePinsTheSession() throws Exception {
    String warehouse = "pinning";
    try (Database database = new Database(PostgresConnections.factory(jdbcUrl, null, null), 2)) {
      Migrations.migrate(database);
      new RealmBootstrap(database).bootstrap(LocalTwin.REALM, TestTwin.ROOT);
      new Warehouses(database)
          .ensure(
              LocalTwin.REALM,
              warehouse,
              "s3://" + LocalTwin.BUCKET + "/" + warehouse + "-" + System.nanoTime(),
              Map.of());
      CatalogHandler handler = TestTwin.rootHandler(database, warehouse);
      try (TestEndpoint endpoint = TestEndpoint.start(handler);
          RESTCatalog client = endpoint.client(warehouse)) {
        workload(client);
      }
      // the purge function, its sweep and the maintenance schedule, over the same metastore: at
      // start the sweep re-sends the drop's job to this purge's own queue, which purges it
      try (LocalPurge purge =
          LocalPurge.start("127.0.0.1", 0, TestTwin.PURGE, database, TestTwin.get().storage())) {
        waitForNoUnfinishedPurge();
      }
    }

    List<PostgresWireRecorder.Sent> sent = recorder.statements();
    System.out.printf(
        "PinningTest: %d statements on the wire (%d distinct texts), %d connections, startup"
            + " parameters %s%n",
        sent.size(),
        sent.stream().map(PostgresWireRecorder.Sent::sql).distinct().count(),
        recorder.startups().size(),
        recorder.startups().getFirst().keySet());
    assertThat(sent).as("statements seen on the wire").hasSizeGreaterThan(50);
    assertThat(violations(sent)).as("statements that pin an RDS Proxy session").isEmpty();
    assertThat(sent)
        .as("named (server-side) prepared statements")
        .allSatisfy(s -> assertThat(s.name()).as(s.sql()).isEmpty());
    assertThat(recorder.startups()).isNotEmpty();
    for (Map<String, String> startup : recorder.startups()) {
      assertThat(STARTUP_PARAMETERS).containsAll(startup.keySet());
      assertThat(startup).containsEntry("application_name", "puddle");
    }
  }

  /**
   * The rules catch what pgjdbc sends by itself when it is not told the server's version: {@code
   * SET application_name} after the startup message.
   */
  @Test
  void theRulesCatchTheDriversOwnSet() throws Exception {
    int before = recorder.statements().size();
    Properties properties = new Properties();
    properties.setProperty("ApplicationName", "puddle");
    properties.setProperty("prepareThreshold", "0");
    try (Connection connection = new Driver().connect(jdbcUrl, properties)) {
      assertThat(connection.isValid(5)).isTrue();
    }
    List<PostgresWireRecorder.Sent> sent = recorder.statements();
    assertThat(violations(sent.subList(before, sent.size())))
        .anySatisfy(v -> assertThat(v).contains("SET application_name"));
  }

  /**
   * The statement-timeout ceiling comes from the role's default in the database (V15), which the
   * server applies as a session starts: no SET on the wire.
   */
  @Test
  void aNewSessionGetsTheCeilingFromTheRoleNotFromASet() throws Exception {
    try (Database database = new Database(PostgresConnections.factory(jdbcUrl, null, null), 1)) {
      Migrations.migrate(database);
    }
    try (Connection connection = PostgresConnections.factory(jdbcUrl, null, null).open();
        Statement statement = connection.createStatement();
        java.sql.ResultSet rs =
            statement.executeQuery(
                "SELECT setting, source FROM pg_settings WHERE name = 'statement_timeout'")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("60000");
      assertThat(rs.getString(2)).isEqualTo("database user");
    }
  }

  private static void workload(RESTCatalog client) {
    Namespace sales = Namespace.of("sales");
    client.createNamespace(sales, new java.util.HashMap<>(Map.of("owner", "team")));
    client.setProperties(sales, new java.util.HashMap<>(Map.of("k", "v")));
    client.loadNamespaceMetadata(sales);
    client.listNamespaces();
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    TableIdentifier orders = TableIdentifier.of(sales, "orders");
    Table table = client.createTable(orders, schema);
    table.updateProperties().set("a", "1").commit();
    table.updateSchema().addColumn("note", Types.StringType.get()).commit();
    client.loadTable(orders).refresh();
    client.listTables(sales);
    client.tableExists(orders);
    TableIdentifier renamed = TableIdentifier.of(sales, "orders_2");
    client.renameTable(orders, renamed);
    client
        .buildView(TableIdentifier.of(sales, "recent"))
        .withSchema(schema)
        .withDefaultNamespace(sales)
        .withQuery("spark", "SELECT id FROM sales.orders_2")
        .create();
    client.listViews(sales);
    client.dropView(TableIdentifier.of(sales, "recent"));
    client.dropTable(renamed, true);
    client.dropNamespace(sales);
  }

  /** Waits until every purge job of the recorded database is done, reading it directly. */
  private static void waitForNoUnfinishedPurge() throws Exception {
    String direct =
        jdbcUrl.replaceFirst("//127\\.0\\.0\\.1:\\d+/", "//127.0.0.1:" + twinPort() + "/");
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
    try (Connection connection = PostgresConnections.factory(direct, null, null).open();
        java.sql.PreparedStatement statement =
            connection.prepareStatement(
                "SELECT count(*) FILTER (WHERE state <> 'done'), count(*) FROM purge_job")) {
      while (true) {
        try (java.sql.ResultSet rs = statement.executeQuery()) {
          rs.next();
          if (rs.getInt(1) == 0 && rs.getInt(2) > 0) {
            return;
          }
        }
        assertThat(System.nanoTime()).as("the purge done within 30 s").isLessThan(deadline);
        java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
      }
    }
  }

  private static int twinPort() {
    return Integer.parseInt(TestTwin.get().jdbcUrl().replaceFirst(".*//[^:/]+:(\\d+)/.*", "$1"));
  }

  /** Each statement that matches a rule, with the rule it breaks. */
  private static List<String> violations(List<PostgresWireRecorder.Sent> sent) {
    List<String> found = new ArrayList<>();
    for (PostgresWireRecorder.Sent s : sent) {
      if (s.sql().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_TEXT_BYTES) {
        found.add("a statement text over 16 KB: " + s.sql().substring(0, 200) + "…");
      }
      for (String statement : statements(s.sql())) {
        RULES.forEach(
            (rule, pattern) -> {
              if (pattern.matcher(statement).find()) {
                found.add(rule + ": " + s.sql());
              }
            });
      }
    }
    return found;
  }

  /**
   * The statements of a query string: bodies of functions and DO blocks, string literals and
   * comments taken out (what runs inside a function does not pin, per AWS), split at semicolons,
   * upper-cased at the start for the rules.
   */
  private static List<String> statements(String sql) {
    String bare = DOLLAR_QUOTED.matcher(sql).replaceAll("\\$\\$");
    bare = QUOTED.matcher(bare).replaceAll("''");
    bare = COMMENTS.matcher(bare).replaceAll(" ");
    List<String> statements = new ArrayList<>();
    for (String statement : bare.split(";")) {
      String trimmed = statement.strip();
      if (!trimmed.isEmpty()) {
        statements.add(trimmed);
      }
    }
    return statements;
  }
}
