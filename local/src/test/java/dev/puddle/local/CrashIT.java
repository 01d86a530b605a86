package dev.puddle.local;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash loses nothing and the next start works: the twin, a process of its own from the shaded
 * jar, acknowledges commits, then it (or its PostgreSQL server) is killed with SIGKILL, as the
 * kernel's OOM killer would; a twin started at once on the same data directory is up on its first
 * try and holds every acknowledged commit. Its PostgreSQL runs durably (fsync and synchronous
 * commit on), as the twin's must.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class CrashIT {
  private static final String ROOT = "root:crash-test-secret-not-for-production";
  private static final Duration START = Duration.ofSeconds(90);
  private static final TableIdentifier TABLE = TableIdentifier.of(Namespace.of("crash"), "events");
  private static final int COMMITS = 8;

  @TempDir Path data;

  @Test
  void aKilledTwinLosesNoAcknowledgedCommitAndTheNextStartSucceeds() throws Exception {
    List<Long> acknowledged;
    long postmaster;
    TwinProcess first = TwinProcess.java(data, ROOT);
    try {
      Map<String, String> properties = first.awaitRunning(START);
      assertDurable();
      acknowledged = commit(properties);
      postmaster = postmasterPid();
    } finally {
      first.kill();
    }
    // the server outlives its twin until the next start shuts it down
    assertThat(ProcessHandle.of(postmaster).filter(ProcessHandle::isAlive)).isPresent();

    try (TwinProcess second = TwinProcess.java(data, ROOT)) {
      Map<String, String> properties = second.awaitRunning(START);
      assertThat(snapshots(properties)).isEqualTo(acknowledged);
      assertThat(postmasterPid()).isNotEqualTo(postmaster);
      assertThat(ProcessHandle.of(postmaster).filter(ProcessHandle::isAlive)).isEmpty();
    }
  }

  @Test
  void aKilledPostgresLosesNoAcknowledgedCommitAndTheNextStartSucceeds() throws Exception {
    List<Long> acknowledged;
    try (TwinProcess first = TwinProcess.java(data, ROOT)) {
      Map<String, String> properties = first.awaitRunning(START);
      acknowledged = commit(properties);
      ProcessHandle postmaster = ProcessHandle.of(postmasterPid()).orElseThrow();
      postmaster.destroyForcibly();
      postmaster.onExit().get(30, TimeUnit.SECONDS);
      // the twin says its server is gone
      first.awaitError(line -> line.contains("PostgreSQL (pid "), Duration.ofSeconds(30));
      first.kill();
    }

    try (TwinProcess second = TwinProcess.java(data, ROOT)) {
      Map<String, String> properties = second.awaitRunning(START);
      assertThat(snapshots(properties)).isEqualTo(acknowledged);
    }
  }

  /**
   * Creates a table and appends to it {@link #COMMITS} times, returning the snapshot ids of the
   * commits the catalog acknowledged, the last one just before the caller kills.
   */
  private static List<Long> commit(Map<String, String> properties) throws IOException {
    List<Long> acknowledged = new ArrayList<>();
    try (RESTCatalog catalog = catalog(properties)) {
      catalog.createNamespace(TABLE.namespace());
      Table table =
          catalog.createTable(
              TABLE,
              new Schema(required(1, "id", Types.LongType.get())),
              PartitionSpec.unpartitioned());
      for (int i = 0; i < COMMITS; i++) {
        table
            .newFastAppend()
            .appendFile(
                DataFiles.builder(PartitionSpec.unpartitioned())
                    .withPath("s3://" + LocalTwin.BUCKET + "/data/" + i + ".parquet")
                    .withFileSizeInBytes(10)
                    .withRecordCount(1)
                    .build())
            .commit();
        acknowledged.add(table.currentSnapshot().snapshotId());
      }
    }
    return acknowledged;
  }

  /** The snapshot ids of the table as a fresh client loads it, oldest first. */
  private static List<Long> snapshots(Map<String, String> properties) throws IOException {
    try (RESTCatalog catalog = catalog(properties)) {
      return StreamSupport.stream(catalog.loadTable(TABLE).snapshots().spliterator(), false)
          .map(Snapshot::snapshotId)
          .toList();
    }
  }

  /** Iceberg's REST client with the properties the twin's banner lists, signed in as root. */
  private static RESTCatalog catalog(Map<String, String> properties) {
    Map<String, String> all = new HashMap<>(properties);
    all.put(OAuth2Properties.CREDENTIAL, ROOT);
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("crash", all);
    return catalog;
  }

  /** The process id PostgreSQL wrote into its data directory. */
  private long postmasterPid() throws IOException {
    return Long.parseLong(
        Files.readAllLines(data.resolve("postgres/postmaster.pid"), StandardCharsets.UTF_8)
            .getFirst()
            .trim());
  }

  /** The twin's PostgreSQL (on the port its postmaster.pid gives) flushes every commit. */
  private void assertDurable() throws IOException {
    String port =
        Files.readAllLines(data.resolve("postgres/postmaster.pid"), StandardCharsets.UTF_8)
            .get(3)
            .trim();
    try (Connection connection =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "");
        Statement statement = connection.createStatement()) {
      assertThat(setting(statement, "fsync")).isEqualTo("on");
      assertThat(setting(statement, "synchronous_commit")).isEqualTo("on");
      assertThat(setting(statement, "full_page_writes")).isEqualTo("on");
    } catch (SQLException e) {
      throw new UncheckedIOException(new IOException(e));
    }
  }

  private static String setting(Statement statement, String name) throws SQLException {
    try (ResultSet rs = statement.executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
