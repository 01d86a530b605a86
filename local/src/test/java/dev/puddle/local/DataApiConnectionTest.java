package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.dataapi.DataApiConnections;
import dev.puddle.local.LocalDataApi.Operation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Data API adapter through the real SDK client, against {@link LocalDataApi} on a real
 * PostgreSQL: types, errors and their SQLSTATE, transactions, a resuming cluster, and values far
 * beyond the service's request, response and row limits.
 */
// asserts a network timeout bounds a call to under 2 s: runs alone (local/pom.xml, alone-tests)
@Tag("timing")
class DataApiConnectionTest {
  /** Waits for a resuming cluster as long as in production, in shorter steps. */
  private static final DataApiConnections.Resume QUICK_RESUME =
      new DataApiConnections.Resume(
          DataApiConnections.Resume.DEFAULT.maxWait(), Duration.ofMillis(5), Duration.ofMillis(50));

  private static EmbeddedPostgres postgres;
  private static LocalDataApi endpoint;
  private static DataApiConnections connections;
  private static Database database;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    endpoint = LocalDataApi.start(postgres.getJdbcUrl("postgres", "postgres"), "postgres");
    connections = endpoint.connections(QUICK_RESUME);
    database = new Database(connections, 2);
  }

  @AfterAll
  static void stop() throws Exception {
    database.close();
    connections.close();
    endpoint.close();
    postgres.close();
  }

  @BeforeEach
  void resetTables() {
    update("DROP TABLE IF EXISTS child, parent, item");
    update("CREATE TABLE parent (id bigint PRIMARY KEY)");
    update("CREATE TABLE child (id bigint PRIMARY KEY, parent_id bigint REFERENCES parent (id))");
    update(
        "CREATE TABLE item (id uuid PRIMARY KEY, n bigint, i integer, name text, flag boolean,"
            + " levels text[], props jsonb, body text, at timestamptz, blob bytea,"
            + " score double precision)");
  }

  @Test
  void bindsAndReadsTheTypesTheMetastoreUses() {
    UUID id = UUID.randomUUID();
    String[] levels = {"a", "b,c", "quote\"d", "back\\slash", "", "ünï"};
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO item (id, n, i, name, flag, levels, props, body)"
                      + " VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?)")) {
            statement.setObject(1, id);
            statement.setLong(2, 1L << 40);
            statement.setInt(3, 7);
            statement.setString(4, "it's a 'name' with ? and :colon");
            statement.setBoolean(5, true);
            statement.setArray(6, connection.createArrayOf("text", levels));
            statement.setString(7, "{\"k\": \"v\"}");
            statement.setObject(8, null);
            assertThat(statement.executeUpdate()).isEqualTo(1);
          }
          return null;
        });

    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT id, n, i, name, flag, levels, props::text, body, props"
                      + " FROM item WHERE levels = ? AND id = ?")) {
            statement.setArray(1, connection.createArrayOf("text", levels));
            statement.setObject(2, id);
            try (ResultSet rs = statement.executeQuery()) {
              assertThat(rs.next()).isTrue();
              assertThat(rs.getObject(1, UUID.class)).isEqualTo(id);
              assertThat(rs.getLong(2)).isEqualTo(1L << 40);
              assertThat(rs.getInt(3)).isEqualTo(7);
              assertThat(rs.getString(4)).isEqualTo("it's a 'name' with ? and :colon");
              assertThat(rs.getBoolean(5)).isTrue();
              assertThat((String[]) rs.getArray(6).getArray()).containsExactly(levels);
              assertThat(rs.getString(7)).isEqualTo("{\"k\": \"v\"}");
              assertThat(rs.getString(8)).isNull();
              assertThat(rs.wasNull()).isTrue();
              assertThat(rs.getString(9)).isEqualTo("{\"k\":\"v\"}");
              assertThat(rs.next()).isFalse();
            }
          }
          return null;
        });
  }

  @Test
  void timestampsAreInstants() {
    Timestamp at = Timestamp.from(Instant.parse("2024-05-01T12:34:56.123456Z"));
    UUID id = UUID.randomUUID();
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement("INSERT INTO item (id, at) VALUES (?, ?), (?, ?)")) {
            statement.setObject(1, id);
            statement.setTimestamp(2, at);
            statement.setObject(3, UUID.randomUUID());
            statement.setTimestamp(4, null);
            return statement.executeUpdate();
          }
        });
    List<Timestamp> read =
        database.autocommit(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT at FROM item"
                          + " WHERE at IS NULL OR at = timestamptz '2024-05-01 14:34:56.123456+02'"
                          + " ORDER BY at NULLS LAST")) {
                List<Timestamp> result = new ArrayList<>();
                try (ResultSet rs = statement.executeQuery()) {
                  while (rs.next()) {
                    result.add(rs.getTimestamp(1));
                  }
                }
                return result;
              }
            });
    assertThat(read).containsExactly(at, null);
  }

  @Test
  void bytesAndDoublesRoundTripWhateverTheirSize() {
    byte[] small = {0, 1, (byte) 0xff, '"', '\\'};
    byte[] large = new byte[3 << 20];
    new Random(42).nextBytes(large);
    UUID smallId = UUID.randomUUID();
    UUID largeId = UUID.randomUUID();
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO item (id, blob, score) VALUES (?, ?, ?), (?, ?, ?)")) {
            statement.setObject(1, smallId);
            statement.setBytes(2, small);
            statement.setDouble(3, 0.1);
            statement.setObject(4, largeId);
            statement.setBytes(5, large);
            statement.setObject(6, null);
            return statement.executeUpdate();
          }
        });
    for (UUID id : List.of(smallId, largeId)) {
      byte[] read =
          database.autocommit(
              connection -> {
                try (PreparedStatement statement =
                    connection.prepareStatement(
                        "SELECT blob, score::text, NULL::bytea FROM item WHERE id = ?")) {
                  statement.setObject(1, id);
                  try (ResultSet rs = statement.executeQuery()) {
                    rs.next();
                    assertThat(rs.getString(2)).isEqualTo(id == smallId ? "0.1" : null);
                    assertThat(rs.getBytes(3)).isNull();
                    return rs.getBytes(1);
                  }
                }
              });
      assertThat(read).isEqualTo(id == smallId ? small : large);
    }
  }

  @Test
  void nullParametersTakeTheirTypeFromTheStatement() {
    List<String> names =
        database.autocommit(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT x FROM (VALUES ('a'), ('b')) AS v(x)"
                          + " WHERE (?::text IS NULL OR x > ?) AND ?::text[] IS NULL"
                          + " AND NULL::bigint IS NOT DISTINCT FROM ? ORDER BY x")) {
                statement.setString(1, null);
                statement.setString(2, null);
                statement.setArray(3, null);
                statement.setObject(4, null);
                return strings(statement);
              }
            });
    assertThat(names).containsExactly("a", "b");
  }

  @Test
  void integerParametersStayIntegers() {
    // pg_advisory_xact_lock exists for (bigint) and (integer, integer) only: an integer sent as a
    // long would find no function
    boolean executed =
        database.transaction(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
                statement.setInt(1, 0x6c6f6361);
                statement.setInt(2, 1);
                return statement.execute();
              }
            });
    assertThat(executed).as("the statement returned its (void) row").isTrue();
  }

  @Test
  void constraintViolationsCarryTheirSqlState() {
    update("INSERT INTO parent VALUES (1)");
    SQLException duplicate = failure("INSERT INTO parent VALUES (1)");
    assertThat(duplicate.getSQLState()).isEqualTo("23505");
    assertThat(duplicate.getMessage()).contains("duplicate key value");
    SQLException orphan = failure("INSERT INTO child VALUES (1, 42)");
    assertThat(orphan.getSQLState()).isEqualTo("23503");
  }

  @Test
  void aTransactionIsAllOrNothing() {
    assertThatThrownBy(
            () ->
                database.transaction(
                    connection -> {
                      execute(connection, "INSERT INTO parent VALUES (1)");
                      execute(connection, "INSERT INTO parent VALUES (2)");
                      throw new IllegalStateException("changed my mind");
                    }))
        .isInstanceOf(IllegalStateException.class);
    assertThat(count("parent")).isZero();

    database.transaction(
        connection -> {
          execute(connection, "INSERT INTO parent VALUES (1)");
          execute(connection, "INSERT INTO parent VALUES (2)");
          return null;
        });
    assertThat(count("parent")).isEqualTo(2);
  }

  @Test
  void aTransactionBeginsWithItsFirstStatement() throws Exception {
    try (Connection connection = connections.open()) {
      connection.setAutoCommit(false);
      Map<Operation, Long> before = endpoint.calls();
      connection.commit();
      assertThat(endpoint.calls()).isEqualTo(before);

      execute(connection, "INSERT INTO parent VALUES (1)");
      connection.commit();
      Map<Operation, Long> after = endpoint.calls();
      assertThat(after.get(Operation.BEGIN_TRANSACTION) - before.get(Operation.BEGIN_TRANSACTION))
          .isEqualTo(1);
      assertThat(after.get(Operation.EXECUTE_STATEMENT) - before.get(Operation.EXECUTE_STATEMENT))
          .isEqualTo(1);
      assertThat(after.get(Operation.COMMIT_TRANSACTION) - before.get(Operation.COMMIT_TRANSACTION))
          .isEqualTo(1);
    }
  }

  @Test
  void aResumingClusterIsWaitedFor() {
    endpoint.resumeAfter(3);
    long before = endpoint.totalCalls();
    assertThat(count("parent")).isZero();
    assertThat(endpoint.totalCalls() - before).isEqualTo(4);
  }

  @Test
  void aClusterThatDoesNotResumeInTimeIsUnavailable() throws Exception {
    DataApiConnections.Resume brief =
        new DataApiConnections.Resume(
            Duration.ofMillis(200), Duration.ofMillis(10), Duration.ofMillis(40));
    try (DataApiConnections impatient = endpoint.connections(brief);
        Database unavailable = new Database(impatient, 1)) {
      endpoint.resumeAfter(Integer.MAX_VALUE);
      try {
        assertThatThrownBy(() -> unavailable.autocommit(c -> count(c, "parent")))
            .isInstanceOf(ServiceUnavailableException.class)
            .hasCauseInstanceOf(SQLTransientConnectionException.class);
        try (Connection connection = impatient.open()) {
          assertThatThrownBy(() -> count(connection, "parent"))
              .isInstanceOfSatisfying(
                  SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"));
        }
      } finally {
        endpoint.resumeAfter(0);
      }
    }
  }

  @Test
  void theNetworkTimeoutBoundsEachCallAndTheWaitForAResume() throws Exception {
    try (Connection connection = connections.open()) {
      connection.setNetworkTimeout(Runnable::run, 300);
      assertThat(connection.getNetworkTimeout()).isEqualTo(300);
      endpoint.resumeAfter(Integer.MAX_VALUE);
      long start = System.nanoTime();
      try {
        assertThatThrownBy(() -> count(connection, "parent"))
            .isInstanceOfSatisfying(
                SQLTransientConnectionException.class,
                e -> assertThat(e.getSQLState()).isEqualTo("08001"));
      } finally {
        endpoint.resumeAfter(0);
      }
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
      assertThat(count(connection, "parent")).isZero();
    }
  }

  @Test
  void valuesBeyondTheRequestAndResponseLimitsAreWrittenAndReadInPieces() {
    String body = largeText(5 << 20);
    UUID id = UUID.randomUUID();
    long before = endpoint.totalCalls();
    database.autocommit(connection -> insertBody(connection, id, body));
    long writeCalls = endpoint.totalCalls() - before;

    before = endpoint.totalCalls();
    String read = database.autocommit(connection -> readBody(connection, id));
    long readCalls = endpoint.totalCalls() - before;

    assertThat(read).isEqualTo(body);
    assertThat(endpoint.largestResponse()).isLessThanOrEqualTo(1 << 20);
    // a statement that big needs a transaction of its own: begin, pieces, insert, commit
    assertThat(writeCalls).isBetween(4L, 10L);
    // the first call, then begin, the query again, its pieces (at most 1 MiB each), commit
    assertThat(readCalls).isBetween(10L, 20L);

    // within a transaction, and updated in place
    String changed = largeText(4 << 20) + "changed";
    String inTransaction =
        database.transaction(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement("UPDATE item SET body = ? WHERE id = ?")) {
                statement.setString(1, changed);
                statement.setObject(2, id);
                assertThat(statement.executeUpdate()).isEqualTo(1);
              }
              return readBody(connection, id);
            });
    assertThat(inTransaction).isEqualTo(changed);
  }

  @Test
  void aModifyingQueryWithLargeResultsRunsOnce() {
    UUID id = UUID.randomUUID();
    String body = largeText(2 << 20);
    database.autocommit(connection -> insertBody(connection, id, body));

    String returned =
        database.autocommit(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "UPDATE item SET n = coalesce(n, 0) + 1 WHERE id = ? RETURNING body")) {
                statement.setObject(1, id);
                return strings(statement).getFirst();
              }
            });

    assertThat(returned).isEqualTo(body);
    long updates =
        database.autocommit(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement("SELECT n FROM item WHERE id = ?")) {
                statement.setObject(1, id);
                try (ResultSet rs = statement.executeQuery()) {
                  rs.next();
                  return rs.getLong(1);
                }
              }
            });
    assertThat(updates).isEqualTo(1);
  }

  @Test
  void aLargeRowIsReadWholeFromOneVersionWhileItChanges() {
    UUID id = UUID.randomUUID();
    String first = largeText(2 << 20);
    String second = largeText(3 << 20) + "second";
    database.autocommit(connection -> insertBody(connection, id, first));

    // calls of the read: the first, then in a transaction of its own the query again, keeping
    // the row, then its pieces; the row changes after the query ran again
    endpoint.beforeExecute(2, () -> updateBody(id, second));
    String read = database.autocommit(connection -> readBody(connection, id));
    assertThat(read).isEqualTo(first);

    read = database.autocommit(connection -> readBody(connection, id));
    assertThat(read).isEqualTo(second);
  }

  @Test
  void resultsLargerThanOneResponseComeInPiecesInOrder() {
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO item (id, n, name) SELECT gen_random_uuid(), g, repeat(chr(65 + g %"
                      + " 26), 1500) FROM generate_series(1, 1500) AS g")) {
            return statement.executeUpdate();
          }
        });
    List<String> names =
        database.autocommit(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement("SELECT name, n FROM item ORDER BY n")) {
                return strings(statement);
              }
            });
    assertThat(names).hasSize(1500);
    for (int g = 1; g <= 1500; g++) {
      assertThat(names.get(g - 1)).isEqualTo(String.valueOf((char) (65 + g % 26)).repeat(1500));
    }
    assertThat(endpoint.largestResponse()).isLessThanOrEqualTo(1 << 20);
  }

  @Test
  void aQueryMayReturnAtMostTwoThousandRows() throws Exception {
    try (Connection connection = connections.open();
        PreparedStatement statement =
            connection.prepareStatement("SELECT g FROM generate_series(1, 2001) g")) {
      assertThatThrownBy(statement::executeQuery)
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("54000"));
    }
  }

  @Test
  void aModifyingQueryWithTooManyRowsChangesNothing() {
    assertThatThrownBy(
            () ->
                database.autocommit(
                    connection -> {
                      try (PreparedStatement statement =
                          connection.prepareStatement(
                              "INSERT INTO parent SELECT g FROM generate_series(1, 2001) g"
                                  + " RETURNING id")) {
                        return strings(statement);
                      }
                    }))
        .isInstanceOf(RuntimeException.class);
    assertThat(count("parent")).isZero();
  }

  @Test
  void aScriptRunsStatementByStatement() {
    database.transaction(
        connection -> {
          try (Statement statement = connection.createStatement()) {
            statement.execute(
                "-- a comment; with a semicolon\n"
                    + "INSERT INTO parent VALUES (1);\n"
                    + "/* another; */ INSERT INTO parent VALUES (2);\n"
                    + "INSERT INTO item (id, name) VALUES (gen_random_uuid(), 'a;b');\n"
                    + "-- trailing comment\n");
          }
          return null;
        });
    assertThat(count("parent")).isEqualTo(2);
    assertThat(count("item")).isEqualTo(1);
  }

  @Test
  void aConnectionAnswersWhetherItIsValidAndRefusesWhatItDoesNotSupport() throws Exception {
    Connection connection = connections.open();
    assertThat(connection.isValid(2)).isTrue();
    assertThatThrownBy(() -> connection.prepareCall("CALL x()"))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
    Array array = connection.createArrayOf("text", new Object[] {"a"});
    assertThat(array.getBaseTypeName()).isEqualTo("text");
    assertThatThrownBy(() -> connection.createArrayOf("text[]; DROP TABLE x", new Object[0]))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
    connection.close();
    assertThat(connection.isClosed()).isTrue();
    assertThat(connection.isValid(2)).isFalse();
  }

  private static Object insertBody(Connection connection, UUID id, String body)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("INSERT INTO item (id, body) VALUES (?, ?)")) {
      statement.setObject(1, id);
      statement.setString(2, body);
      return statement.executeUpdate();
    }
  }

  private static String readBody(Connection connection, UUID id) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT id, body FROM item WHERE id = ?")) {
      statement.setObject(1, id);
      try (ResultSet rs = statement.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(1, UUID.class)).isEqualTo(id);
        return rs.getString(2);
      }
    }
  }

  private static void updateBody(UUID id, String body) {
    try (Connection connection = postgres.getPostgresDatabase().getConnection();
        PreparedStatement statement =
            connection.prepareStatement("UPDATE item SET body = ? WHERE id = ?")) {
      statement.setString(1, body);
      statement.setObject(2, id);
      statement.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Text with everything that JSON escapes or UTF-8 widens: quotes, backslashes, control
   * characters, accents, CJK and characters outside the BMP, so that piece boundaries fall inside
   * multi-byte characters.
   */
  private static String largeText(int chars) {
    String pattern = "{\"k\":\"v\\\\\"}\n\t\u0001é漢😀 plain ascii text ";
    StringBuilder out = new StringBuilder(chars + pattern.length());
    while (out.length() < chars) {
      out.append(pattern).append(out.length());
    }
    return out.toString();
  }

  private static List<String> strings(PreparedStatement statement) throws SQLException {
    List<String> result = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        result.add(rs.getString(1));
      }
    }
    return result;
  }

  private static void update(String sql) {
    database.autocommit(connection -> execute(connection, sql));
  }

  private static int execute(Connection connection, String sql) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      return statement.executeUpdate();
    }
  }

  private static SQLException failure(String sql) {
    try (Connection connection = connections.open()) {
      execute(connection, sql);
    } catch (SQLException e) {
      return e;
    }
    throw new AssertionError("Expected " + sql + " to fail");
  }

  private static long count(String table) {
    return database.autocommit(connection -> count(connection, table));
  }

  private static long count(Connection connection, String table) throws SQLException {
    try (PreparedStatement statement =
            connection.prepareStatement("SELECT count(*) FROM " + table);
        ResultSet rs = statement.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
