package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The migration scripts: every file is listed and runs, in version order, once. */
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
}
