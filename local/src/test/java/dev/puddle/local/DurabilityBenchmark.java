package dev.puddle.local;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.functions.RequestLog;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.collect.Iterables;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What durability costs a commit: the twin's PostgreSQL with fsync and synchronous commit on (as
 * the twin runs) against off (the embedded library's defaults, which the tests keep), measured on
 * this machine's disk, side by side (one commit on each in turn): a one-row SQL transaction, and an
 * Iceberg append through the twin (manifests, the commit: metadata file, pointer swap). Prints
 * median, mean and 90th percentile of each and the difference; asserts only that every commit
 * landed.
 *
 * <p>A benchmark, not a test: excluded from {@code ./mvnw verify}. Run it with
 *
 * <pre>
 * ./mvnw -B -pl local -am test -Dtest=DurabilityBenchmark \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dgroups=benchmark -Dpuddle.excludedGroups=
 * </pre>
 */
@Tag("benchmark")
class DurabilityBenchmark {
  private static final int WARM_UP = 50;
  private static final int SQL_COMMITS = 500;
  private static final int ICEBERG_COMMITS = 100;

  @TempDir Path dir;

  @Test
  void durableCommitsAgainstFastOnes() throws Exception {
    Map<LocalPostgres.Durability, LocalTwin> twins = new EnumMap<>(LocalPostgres.Durability.class);
    try {
      for (LocalPostgres.Durability durability : LocalPostgres.Durability.values()) {
        twins.put(durability, twin(durability));
      }
      // side by side, one commit of each in turn, so that both see the same load on the machine
      Map<LocalPostgres.Durability, double[]> sql = new EnumMap<>(LocalPostgres.Durability.class);
      Map<LocalPostgres.Durability, Commits> sqlCommits =
          new EnumMap<>(LocalPostgres.Durability.class);
      for (var twin : twins.entrySet()) {
        sqlCommits.put(twin.getKey(), new SqlCommits(twin.getValue().jdbcUrl()));
        sql.put(twin.getKey(), new double[SQL_COMMITS]);
      }
      measure(sqlCommits, sql);
      Map<LocalPostgres.Durability, double[]> iceberg =
          new EnumMap<>(LocalPostgres.Durability.class);
      Map<LocalPostgres.Durability, Commits> icebergCommits =
          new EnumMap<>(LocalPostgres.Durability.class);
      for (var twin : twins.entrySet()) {
        icebergCommits.put(twin.getKey(), new IcebergCommits(twin.getValue()));
        iceberg.put(twin.getKey(), new double[ICEBERG_COMMITS]);
      }
      measure(icebergCommits, iceberg);
      for (Commits commits : sqlCommits.values()) {
        commits.close();
      }
      for (Commits commits : icebergCommits.values()) {
        commits.close();
      }
      report("SQL transaction (INSERT one row)", sql);
      report("Iceberg append via the twin", iceberg);
    } finally {
      twins.values().forEach(LocalTwin::close);
    }
  }

  private LocalTwin twin(LocalPostgres.Durability durability) throws IOException {
    return LocalTwin.start(
        new LocalTwin.Options(
            Files.createDirectories(dir.resolve(durability.name())),
            "127.0.0.1",
            0,
            0,
            0,
            0,
            LocalPurge.Options.DEFAULTS,
            TestTwin.ROOT,
            durability,
            // the lines would cost as much in both: none are written
            RequestLog.text(new PrintStream(OutputStream.nullOutputStream()), ZoneOffset.UTC)));
  }

  /** Warms each up, then times one commit of each in turn. */
  private static void measure(
      Map<LocalPostgres.Durability, Commits> commits,
      Map<LocalPostgres.Durability, double[]> millis)
      throws Exception {
    int count = millis.values().iterator().next().length;
    for (int i = -WARM_UP; i < count; i++) {
      for (var entry : commits.entrySet()) {
        long start = System.nanoTime();
        entry.getValue().commit(i);
        if (i >= 0) {
          millis.get(entry.getKey())[i] = (System.nanoTime() - start) / 1e6;
        }
      }
    }
    for (var entry : commits.entrySet()) {
      assertThat(entry.getValue().committed()).isEqualTo(WARM_UP + count);
    }
  }

  /** One kind of commit against one twin. */
  private interface Commits extends AutoCloseable {
    void commit(int i) throws Exception;

    long committed() throws Exception;
  }

  /** A one-row INSERT in a transaction of its own, on one connection. */
  private static final class SqlCommits implements Commits {
    private final Connection connection;
    private final PreparedStatement insert;

    SqlCommits(String jdbcUrl) throws SQLException {
      connection = DriverManager.getConnection(jdbcUrl);
      try (Statement statement = connection.createStatement()) {
        statement.execute("CREATE TABLE bench_commit (id int)");
      }
      insert = connection.prepareStatement("INSERT INTO bench_commit VALUES (?)");
    }

    @Override
    public void commit(int i) throws SQLException {
      insert.setInt(1, i);
      insert.executeUpdate(); // autocommit: one transaction each
    }

    @Override
    public long committed() throws SQLException {
      try (Statement statement = connection.createStatement();
          ResultSet rs = statement.executeQuery("SELECT count(*) FROM bench_commit")) {
        rs.next();
        return rs.getLong(1);
      }
    }

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }

  /** An append of one data file with Iceberg's REST client, as an engine commits. */
  private static final class IcebergCommits implements Commits {
    private static final TableIdentifier TABLE =
        TableIdentifier.of(Namespace.of("bench"), "commits");

    private final RESTCatalog catalog = new RESTCatalog();
    private final Table table;

    IcebergCommits(LocalTwin twin) {
      Map<String, String> properties = new HashMap<>(twin.clientProperties());
      properties.put(
          OAuth2Properties.CREDENTIAL,
          TestTwin.ROOT.clientId() + ":" + TestTwin.ROOT.clientSecret());
      catalog.initialize("bench", properties);
      catalog.createNamespace(TABLE.namespace());
      table =
          catalog.createTable(
              TABLE,
              new Schema(required(1, "id", Types.LongType.get())),
              PartitionSpec.unpartitioned());
    }

    @Override
    public void commit(int i) {
      table
          .newFastAppend()
          .appendFile(
              DataFiles.builder(PartitionSpec.unpartitioned())
                  .withPath("s3://" + LocalTwin.BUCKET + "/data/" + i + ".parquet")
                  .withFileSizeInBytes(10)
                  .withRecordCount(1)
                  .build())
          .commit();
    }

    @Override
    public long committed() {
      return Iterables.size(catalog.loadTable(TABLE).snapshots());
    }

    @Override
    public void close() throws IOException {
      catalog.close();
    }
  }

  private static void report(String what, Map<LocalPostgres.Durability, double[]> millis) {
    double[] medians = new double[2];
    for (var entry : millis.entrySet()) {
      double[] sorted = entry.getValue().clone();
      Arrays.sort(sorted);
      medians[entry.getKey().ordinal()] = sorted[sorted.length / 2];
      System.out.printf(
          Locale.ROOT,
          "[durability] %-7s %-34s n=%d median %.2f ms, mean %.2f ms, p90 %.2f ms%n",
          entry.getKey(),
          what,
          sorted.length,
          sorted[sorted.length / 2],
          Arrays.stream(sorted).average().orElseThrow(),
          sorted[(int) (sorted.length * 0.9)]);
    }
    System.out.printf(
        Locale.ROOT,
        "[durability] %s: durable costs %+.2f ms a commit at the median (x%.1f)%n",
        what,
        medians[0] - medians[1],
        medians[0] / medians[1]);
  }
}
