package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The migration scripts: every file is listed and runs, in version order, once; a schema newer than
 * the scripts is neither migrated down nor served from.
 */
@ExtendWith(FreshDatabase.class)
class MigrationsTest {
  private static final Path FOLDER =
      Path.of("src/main/resources/dev/puddle/core/metastore/migrations");

  @Test
  void everyScriptOfTheFolderIsListed() throws IOException {
    List<String> files;
    try (Stream<Path> paths = Files.list(FOLDER)) {
      files = paths.map(path -> path.getFileName().toString()).sorted().toList();
    }
    assertThat(files).isNotEmpty().allMatch(name -> name.matches("V[0-9]+__[a-z0-9_]+\\.sql"));
    assertThat(Migrations.SCRIPTS).containsExactlyInAnyOrderElementsOf(files);
  }

  @Test
  void scriptsAreListedInStrictlyIncreasingVersionOrder() {
    List<Integer> versions = Migrations.SCRIPTS.stream().map(Migrations::version).toList();
    assertThat(versions).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void aMigratedDatabaseHasEveryVersionRecordedAndMigratesNoFurther(Database database) {
    assertThat(Migrations.migrate(database)).isZero();
    List<Integer> recorded =
        database.read(
            connection -> {
              try (var statement = connection.createStatement();
                  var rs = statement.executeQuery("SELECT version FROM schema_migration")) {
                List<Integer> versions = new java.util.ArrayList<>();
                while (rs.next()) {
                  versions.add(rs.getInt(1));
                }
                return versions;
              }
            });
    assertThat(recorded)
        .containsExactlyInAnyOrderElementsOf(
            Migrations.SCRIPTS.stream().map(Migrations::version).toList());
  }

  @Test
  void aSchemaNewerThanTheScriptsIsNotMigratedDownAndNothingChanges(Database database) {
    int newer = Migrations.newest() + 1;
    database.autocommit(
        connection -> {
          try (var statement = connection.createStatement()) {
            statement.execute(
                "INSERT INTO schema_migration (version, script) VALUES ("
                    + newer
                    + ", 'V"
                    + newer
                    + "__from_a_newer_release.sql')");
            // a table of the newer release, which an older one must not touch
            statement.execute("CREATE TABLE from_a_newer_release (id integer)");
          }
          return null;
        });
    List<Integer> before = recorded(database);

    assertThatThrownBy(() -> Migrations.migrate(database))
        .isInstanceOf(ServiceUnavailableException.class)
        .hasMessageContaining("version " + newer)
        .hasMessageContaining("version " + Migrations.newest() + ", the newest this release knows");

    assertThat(recorded(database)).isEqualTo(before);
  }

  @Test
  void migratingUpToAVersionLeavesTheLaterScriptsForTheNextRun(Database database) {
    // a database of its own, empty: FreshDatabase's are migrated already
    try (Database empty = emptyNextTo(database)) {
      assertThat(Migrations.migrate(empty, 3)).isEqualTo(3);
      assertThat(recorded(empty)).containsExactly(1, 2, 3);
      assertThat(Migrations.migrate(empty)).isEqualTo(Migrations.SCRIPTS.size() - 3);
    }
  }

  @Test
  void theFirstConnectionOfARunningReleaseRefusesANewerSchemaAndPassesAKnownOne(Database database) {
    String url = database.read(connection -> connection.getMetaData().getURL());
    Database.ConnectionFactory plain = PostgresConnections.factory(url, "postgres", null);
    try (Database older = new Database(new SchemaVersionCheck(plain, Migrations.newest() - 1), 1);
        Database current = new Database(new SchemaVersionCheck(plain), 1)) {
      assertThatThrownBy(() -> older.read(connection -> 1))
          .isInstanceOf(ServiceUnavailableException.class)
          .hasMessageContaining("schema is at version " + Migrations.newest())
          .hasMessageContaining(
              "newer than version " + (Migrations.newest() - 1) + ", the newest this release");
      // refused again, not once: each new connection looks again until a release that knows it
      assertThatThrownBy(() -> older.read(connection -> 1))
          .isInstanceOf(ServiceUnavailableException.class);
      assertThat(current.<Integer>read(connection -> 1)).isEqualTo(1);
    }
  }

  /** A new, empty database in the cluster of {@code database}; dropped with the cluster. */
  private static Database emptyNextTo(Database database) {
    String name = "empty_" + System.nanoTime();
    String url = database.read(connection -> connection.getMetaData().getURL());
    database.autocommit(
        connection -> {
          try (var statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
          }
          return null;
        });
    return new Database(
        PostgresConnections.factory(url.replaceFirst("/test_[0-9]+", "/" + name), "postgres", null),
        1);
  }

  private static List<Integer> recorded(Database database) {
    return database.read(
        connection -> {
          try (var statement = connection.createStatement();
              var rs =
                  statement.executeQuery("SELECT version FROM schema_migration ORDER BY version")) {
            List<Integer> versions = new java.util.ArrayList<>();
            while (rs.next()) {
              versions.add(rs.getInt(1));
            }
            return versions;
          }
        });
  }
}
