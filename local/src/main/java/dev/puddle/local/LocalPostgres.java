package dev.puddle.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real PostgreSQL server (binaries from Maven) on loopback, its data in a directory that
 * survives restarts.
 */
public final class LocalPostgres implements AutoCloseable {
  private final EmbeddedPostgres postgres;

  private LocalPostgres(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** Starts PostgreSQL on {@code dataDirectory}, creating the cluster the first time. */
  public static LocalPostgres start(Path dataDirectory, int port) {
    try {
      EmbeddedPostgres.Builder builder =
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDirectory)
              .setCleanDataDirectory(false)
              .setPGStartupWait(Duration.ofSeconds(60))
              .setServerConfig("listen_addresses", "127.0.0.1")
              .setServerConfig("max_connections", "100");
      if (port > 0) {
        builder.setPort(port);
      }
      return new LocalPostgres(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start PostgreSQL in " + dataDirectory, e);
    }
  }

  public String jdbcUrl() {
    return postgres.getJdbcUrl("postgres", "postgres");
  }

  public String user() {
    return "postgres";
  }

  /** Stops the server: a fast shutdown, so open transactions roll back and data is flushed. */
  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
