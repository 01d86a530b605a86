package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One twin at a time on a data directory: a second PostgreSQL on it is refused at once, with a
 * message that says why, and the directory is free again once the first one stops.
 */
class LocalPostgresTest {
  @TempDir Path data;

  @Test
  void aSecondServerOnTheSameDirectoryIsRefusedUntilTheFirstStops() {
    Path directory = data.resolve("postgres");
    try (LocalPostgres first = LocalPostgres.start(directory, 0, LocalPostgres.Durability.FAST)) {
      assertThatThrownBy(() -> LocalPostgres.start(directory, 0, LocalPostgres.Durability.FAST))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Another Puddle twin is running on " + data.toAbsolutePath());
      assertThat(first.jdbcUrl()).isNotEmpty();
    }
    try (LocalPostgres again = LocalPostgres.start(directory, 0, LocalPostgres.Durability.FAST)) {
      assertThat(again.jdbcUrl()).isNotEmpty();
    }
  }
}
