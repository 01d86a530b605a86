package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Migrations;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.access.RealmBootstrap;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upgrading from every earlier schema keeps every row and leaves a working catalog. For each
 * earlier version k, a new database is migrated one version at a time up to k, and after each
 * version v its fixture {@code upgrade-fixtures/V<v>.sql} adds catalog state through that version's
 * own tables and columns (so state accumulates as a long-lived deployment's does); then it is
 * migrated to the newest version. Every table that existed at k must read back, row for row, the
 * same in the columns it had at k, and the catalog must load its tables and views and commit.
 *
 * <p>Every migration script needs its fixture ({@link #everyMigrationHasAFixture}): a new migration
 * comes with the state it adds, as {@code docs/development/testing.md} says.
 */
class UpgradeTest {
  private static final String FIXTURES = "/upgrade-fixtures/";
  private static final String WAREHOUSE = "lake";

  static IntStream earlierVersions() {
    return Migrations.scripts().stream()
        .mapToInt(Migrations::version)
        .filter(version -> version < Migrations.newest());
  }

  @Test
  void everyMigrationHasAFixture() {
    for (String script : Migrations.scripts()) {
      assertThat(UpgradeTest.class.getResource(fixture(Migrations.version(script))))
          .as(
              "%s needs the catalog state it adds in local/src/test/resources%s",
              script, fixture(Migrations.version(script)))
          .isNotNull();
    }
  }

  @ParameterizedTest(name = "from V{0}")
  @MethodSource("earlierVersions")
  void anUpgradeFromAnEarlierVersionKeepsEveryRowAndTheCatalogWorks(int from) throws IOException {
    try (Database database = newDatabase(from)) {
      for (String script : Migrations.scripts()) {
        int version = Migrations.version(script);
        if (version > from) {
          break;
        }
        assertThat(Migrations.migrate(database, version)).isEqualTo(1);
        apply(database, version);
      }
      Map<String, List<String>> earlier = MetastoreDump.columns(database);
      // the migrations' own record, which the upgrade is meant to extend
      earlier.remove("schema_migration");
      String before = MetastoreDump.of(database, earlier).take();

      int applied = Migrations.migrate(database);

      assertThat(applied)
          .isEqualTo(
              (int)
                  Migrations.scripts().stream()
                      .filter(script -> Migrations.version(script) > from)
                      .count());
      assertThat(MetastoreDump.columns(database))
          .as("no table or column of V%d is gone", from)
          .containsKeys(earlier.keySet().toArray(String[]::new));
      earlier.forEach(
          (table, columns) ->
              assertThat(MetastoreDump.columns(database).get(table))
                  .as("the columns of %s", table)
                  .containsAll(columns));
      assertThat(MetastoreDump.of(database, earlier).take())
          .as("every row of V%d, read back in its columns after the upgrade", from)
          .isEqualTo(before);
      assertThat(recordedVersions(database))
          .as("every script recorded once")
          .containsExactlyElementsOf(
              Migrations.scripts().stream().map(Migrations::version).toList());
      assertTheCatalogWorks(database);
    }
  }

  /**
   * The deploy's own step after migrating (the realm's root), then the catalog through Iceberg's
   * REST client: every namespace, table and view of the fixtures loads, and a commit lands.
   */
  private static void assertTheCatalogWorks(Database database) {
    new RealmBootstrap(database).bootstrap(LocalTwin.REALM, TestTwin.ROOT);
    try (TestEndpoint endpoint = TestEndpoint.start(TestTwin.rootHandler(database, WAREHOUSE));
        RESTCatalog catalog = endpoint.client(WAREHOUSE)) {
      assertThat(catalog.listNamespaces()).containsExactly(Namespace.of("sales"));
      assertThat(catalog.listNamespaces(Namespace.of("sales")))
          .containsExactly(Namespace.of("sales", "eu"));
      assertThat(catalog.loadNamespaceMetadata(Namespace.of("sales")))
          .containsEntry("owner", "finance");

      TableIdentifier orders = TableIdentifier.of("sales", "orders");
      Table table = catalog.loadTable(orders);
      assertThat(table.history()).hasSize(2);
      assertThat(table.currentSnapshot().snapshotId()).isEqualTo(3051729675574597004L);
      assertThat(table.refs()).containsKeys("main", "audit");
      assertThat(table.schemas()).hasSize(2);
      assertThat(
              catalog
                  .loadTable(TableIdentifier.of(Namespace.of("sales", "eu"), "registered"))
                  .location())
          .isEqualTo("s3://elsewhere/registered");
      View view = catalog.loadView(TableIdentifier.of("sales", "big_orders"));
      assertThat(view.currentVersion().versionId()).isEqualTo(2);
      assertThat(view.history()).hasSize(2);

      table.updateProperties().set("upgraded", "true").commit();
      Table committed = catalog.loadTable(orders);
      assertThat(committed.properties()).containsEntry("upgraded", "true");
      assertThat(committed.currentSnapshot().snapshotId()).isEqualTo(3051729675574597004L);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void apply(Database database, int version) throws IOException {
    String sql;
    try (InputStream in = UpgradeTest.class.getResourceAsStream(fixture(version))) {
      assertThat(in).as("the fixture of V%d", version).isNotNull();
      sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (sql.lines().allMatch(line -> line.isBlank() || line.strip().startsWith("--"))) {
      return;
    }
    database.transaction(
        connection -> {
          try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
          }
          return null;
        });
  }

  private static List<Integer> recordedVersions(Database database) {
    return database.read(
        connection -> {
          List<Integer> versions = new java.util.ArrayList<>();
          try (Statement statement = connection.createStatement();
              java.sql.ResultSet rs =
                  statement.executeQuery("SELECT version FROM schema_migration ORDER BY version")) {
            while (rs.next()) {
              versions.add(rs.getInt(1));
            }
          }
          return versions;
        });
  }

  private static String fixture(int version) {
    return FIXTURES + "V" + version + ".sql";
  }

  /** A new, empty database in the JDBC twin's PostgreSQL. */
  private static Database newDatabase(int from) {
    String name = "upgrade_from_v" + from + "_" + System.nanoTime();
    TestTwin.get()
        .database()
        .autocommit(
            connection -> {
              try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + name);
              }
              return null;
            });
    return new Database(
        PostgresConnections.factory(
            TestTwin.get().jdbcUrl().replaceFirst("/postgres\\?", "/" + name + "?"), null, null),
        4);
  }
}
