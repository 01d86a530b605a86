package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.contract.Route;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.functions.CatalogHandler;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A commit that cannot finish before the function's deadline answers 503 in time, instead of being
 * cut off by Lambda or API Gateway in an unknown state, and never lands afterwards. The table's row
 * is locked by another connection, so the commit's compare-and-swap (single-table commit) or its
 * {@code SELECT … FOR UPDATE} (multi-table transaction) waits until the deadline, when the socket
 * timeout closes the connection with {@code COMMIT} never sent (no {@code SET LOCAL
 * statement_timeout}, which would pin the session in RDS Proxy): whatever the server does with the
 * statement afterwards, the transaction can only roll back.
 */
// asserts an answer within the invocation's remaining time: runs alone (local/pom.xml,
// alone-tests)
@Tag("timing")
class DeadlineTest {
  /** What the function has left when invoked; the handler keeps a 2 s margin of it. */
  private static final long REMAINING_MILLIS = 3_500;

  private static final TableIdentifier TABLE = TableIdentifier.of(Namespace.of("sales"), "orders");

  private Database database;
  private CatalogHandler handler;
  private String warehouse;

  @BeforeEach
  void setUp() {
    database = TestTwin.ownDatabase();
    warehouse = TestTwin.newWarehouse("deadline");
    handler = TestTwin.rootHandler(database, warehouse);
  }

  @AfterEach
  void tearDown() {
    database.close();
  }

  static Stream<Route> blockedCommits() {
    return Stream.of(Route.UPDATE_TABLE, Route.COMMIT_TRANSACTION);
  }

  @ParameterizedTest
  @MethodSource("blockedCommits")
  void aCommitBlockedByARowLockAnswers503InTimeAndNeverLands(Route route) throws Exception {
    String metadataLocation;
    try (TestEndpoint endpoint = TestEndpoint.start(handler);
        RESTCatalog client = endpoint.client(warehouse)) {
      client.createNamespace(TABLE.namespace());
      Table table =
          client.createTable(
              TABLE, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
      metadataLocation = ((HasTableOperations) table).operations().current().metadataFileLocation();
    }

    Invocations.Answer answer;
    long elapsedMillis;
    try (Connection holder = lockRow(metadataLocation)) {
      long start = System.nanoTime();
      answer =
          Invocations.invoke(
              handler,
              Invocations.event(route, pathParameters(route), body(route), Map.of()),
              new LocalContext("deadline", java.time.Duration.ofMillis(REMAINING_MILLIS)));
      elapsedMillis = (System.nanoTime() - start) / 1_000_000;
      holder.rollback(); // releases the lock: a commit still waiting would now go through
      // waits for the abandoned transaction, which took the row once released, to end
      lockRowOn(holder, metadataLocation);
      holder.rollback();
    }

    assertThat(answer.status()).as(answer.body()).isEqualTo(503);
    assertThat(answer.errorType()).isEqualTo("ServiceUnavailableException");
    assertThat(elapsedMillis).isLessThan(REMAINING_MILLIS);
    // the abandoned transaction has ended without its COMMIT: nothing landed, nothing is left
    assertThat(currentMetadataLocation()).isEqualTo(metadataLocation);
    assertThat(ourBackendState()).isEqualTo("idle");
    assertThat(currentMetadataLocation()).isEqualTo(metadataLocation);
  }

  private Map<String, String> pathParameters(Route route) {
    return route == Route.UPDATE_TABLE
        ? Map.of("prefix", warehouse, "namespace", "sales", "table", "orders")
        : Map.of("prefix", warehouse);
  }

  private static String body(Route route) {
    String change =
        "\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]";
    return route == Route.UPDATE_TABLE
        ? "{" + change + "}"
        : "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"sales\"],\"name\":\"orders\"},"
            + change
            + "}]}";
  }

  /** Another connection's transaction holding the table's row lock. */
  private static Connection lockRow(String metadataLocation) throws SQLException {
    Connection holder = PostgresConnections.factory(TestTwin.get().jdbcUrl(), null, null).open();
    holder.setAutoCommit(false);
    lockRowOn(holder, metadataLocation);
    return holder;
  }

  private static void lockRowOn(Connection holder, String metadataLocation) throws SQLException {
    try (PreparedStatement statement =
        holder.prepareStatement(
            "SELECT id FROM catalog_object WHERE metadata_location = ? FOR UPDATE")) {
      statement.setString(1, metadataLocation);
      try (ResultSet rs = statement.executeQuery()) {
        assertThat(rs.next()).isTrue();
      }
    }
  }

  private String currentMetadataLocation() {
    return TestTwin.get()
        .database()
        .read(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT o.metadata_location FROM catalog_object o"
                          + " JOIN warehouse w ON w.id = o.warehouse_id"
                          + " WHERE w.name = ? AND o.name = 'orders'")) {
                statement.setString(1, warehouse);
                try (ResultSet rs = statement.executeQuery()) {
                  rs.next();
                  return rs.getString(1);
                }
              }
            });
  }

  /** The state of the handler's own connection, as the server sees it. */
  private String ourBackendState() {
    int pid =
        database.read(
            connection -> {
              try (PreparedStatement statement =
                      connection.prepareStatement("SELECT pg_backend_pid()");
                  ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getInt(1);
              }
            });
    return TestTwin.get()
        .database()
        .read(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT state, backend_xid IS NULL FROM pg_stat_activity WHERE pid = ?")) {
                statement.setInt(1, pid);
                try (ResultSet rs = statement.executeQuery()) {
                  rs.next();
                  return rs.getBoolean(2) ? "idle" : rs.getString(1) + " with a transaction";
                }
              }
            });
  }
}
