package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Migrations;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.local.TestTwin;
import java.sql.Statement;
import java.util.Map;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.junit.jupiter.api.Test;

/**
 * The metastore of the functions that serve no API (purge, sweeps, event relay) refuses a schema
 * newer than the release knows, as the catalog functions' does: their work is the catalog's state
 * too.
 */
class BackgroundFunctionsSchemaVersionTest {
  @Test
  void theBackgroundFunctionsMetastoreRefusesANewerSchema() {
    String name = "background_newer_" + System.nanoTime();
    run(TestTwin.get().database(), "CREATE DATABASE " + name);
    String url = TestTwin.get().jdbcUrl().replaceFirst("/postgres\\?", "/" + name + "?");
    try (Database database =
        new Environment(Map.of("PUDDLE_FUNCTION_GROUP", "purge", "PUDDLE_DB_URL", url))
            .database()) {
      try (Database admin = new Database(PostgresConnections.factory(url, null, null), 1)) {
        Migrations.migrate(admin);
        run(
            admin,
            "INSERT INTO schema_migration (version, script) VALUES ("
                + (Migrations.newest() + 1)
                + ", 'newer.sql')");
      }

      assertThatThrownBy(() -> database.read(connection -> 1))
          .isInstanceOf(ServiceUnavailableException.class)
          .hasMessageContaining("schema is at version " + (Migrations.newest() + 1));
    }
  }

  private static void run(Database database, String sql) {
    database.autocommit(
        connection -> {
          try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
          }
          return null;
        });
  }
}
