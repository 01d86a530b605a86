package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.metastore.Database;
import dev.puddle.functions.CatalogHandler;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.jdbc.UncheckedSQLException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A function keeps one metastore connection between requests. When the database drops it while the
 * function is idle (failover, proxy timeout, {@code pg_terminate_backend}), the next request still
 * succeeds: the broken connection is replaced before any work runs on it. Work that already ran
 * inside a transaction is never run again: its failure is reported, nothing is committed.
 */
class MetastoreConnectionTest {
  private Database database;
  private String warehouse;

  @BeforeEach
  void setUp() {
    database = TestTwin.ownDatabase();
    warehouse = TestTwin.newWarehouse("connections");
    TestTwin.get()
        .database()
        .autocommit(
            connection -> {
              try (Statement statement = connection.createStatement()) {
                statement.execute(
                    "CREATE TABLE IF NOT EXISTS connection_test (id text PRIMARY KEY)");
              }
              return null;
            });
  }

  @AfterEach
  void tearDown() {
    database.close();
  }

  @Test
  void theNextRequestAfterTheBackendWasTerminatedSucceeds() throws Exception {
    CatalogHandler handler = TestTwin.rootHandler(database, warehouse);
    try (TestEndpoint endpoint = TestEndpoint.start(handler);
        RESTCatalog client = endpoint.client(warehouse)) {
      TableIdentifier id = TableIdentifier.of(Namespace.of("sales"), "orders");
      client.createNamespace(id.namespace());
      Table table =
          client.createTable(
              id, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));

      int first = terminateBackend();
      assertThat(client.loadTable(id).properties()).doesNotContainKey("k");

      int second = terminateBackend();
      table.updateProperties().set("k", "v").commit();
      assertThat(client.loadTable(id).properties()).containsEntry("k", "v");

      assertThat(backendPid()).isNotIn(first, second);
    }
  }

  @Test
  void aTransactionOnATerminatedConnectionStartsOverOnANewOneBeforeItsWorkRuns() {
    backendPid(); // the connection is now kept between uses
    terminateBackend();
    AtomicInteger runs = new AtomicInteger();

    String id = "fresh-" + System.nanoTime(); // the table outlives the test: a unique key
    database.transaction(connection -> insert(connection, id + "-" + runs.incrementAndGet()));

    assertThat(runs).hasValue(1);
    assertThat(exists(id + "-1")).isTrue();
  }

  @Test
  void aTransactionWhoseConnectionBreaksInsideItsWorkIsNotRunAgain() {
    backendPid();
    AtomicInteger runs = new AtomicInteger();
    String id = "broken-" + System.nanoTime();

    assertThatThrownBy(
            () ->
                database.transaction(
                    connection -> {
                      runs.incrementAndGet();
                      insert(connection, id);
                      terminate(pid(connection));
                      return insert(connection, id + "-second");
                    }))
        .isInstanceOf(ServiceUnavailableException.class);

    assertThat(runs).hasValue(1);
    assertThat(exists(id)).as("nothing of the failed transaction was committed").isFalse();
    database.transaction(connection -> insert(connection, id + "-after"));
    assertThat(exists(id + "-after")).isTrue();
  }

  @Test
  void aStatementThatFailsInsideATransactionIsNotRunAgain() {
    String id = "duplicate-" + System.nanoTime();
    database.transaction(connection -> insert(connection, id));
    AtomicInteger runs = new AtomicInteger();

    assertThatThrownBy(
            () ->
                database.transaction(
                    connection -> {
                      runs.incrementAndGet();
                      insert(connection, id + "-new");
                      return insert(connection, id); // unique violation
                    }))
        .isInstanceOf(UncheckedSQLException.class);

    assertThat(runs).hasValue(1);
    assertThat(exists(id + "-new")).isFalse();
  }

  @Test
  void aReadWhoseKeptConnectionBreaksRunsOnceMoreOnANewOne() {
    int before = backendPid();
    AtomicInteger runs = new AtomicInteger();

    int pid =
        database.read(
            connection -> {
              if (runs.incrementAndGet() == 1) {
                terminate(pid(connection));
              }
              return pid(connection);
            });

    assertThat(runs).hasValue(2);
    assertThat(pid).isNotEqualTo(before);
  }

  private int backendPid() {
    return database.read(MetastoreConnectionTest::pid);
  }

  /** Terminates the backend of the database's kept connection; returns its pid. */
  private int terminateBackend() {
    int pid = backendPid();
    terminate(pid);
    return pid;
  }

  private static void terminate(int pid) {
    TestTwin.get()
        .database()
        .autocommit(
            connection ->
                queryInt(connection, "SELECT pg_terminate_backend(" + pid + ", 30000)::int"));
  }

  private static int pid(Connection connection) throws SQLException {
    return queryInt(connection, "SELECT pg_backend_pid()");
  }

  private static int insert(Connection connection, String id) throws SQLException {
    try (var statement =
        connection.prepareStatement("INSERT INTO connection_test (id) VALUES (?)")) {
      statement.setString(1, id);
      return statement.executeUpdate();
    }
  }

  private static boolean exists(String id) {
    return TestTwin.get()
        .database()
        .read(
            connection -> {
              try (var statement =
                  connection.prepareStatement(
                      "SELECT count(*) FROM connection_test WHERE id = ?")) {
                statement.setString(1, id);
                try (ResultSet rs = statement.executeQuery()) {
                  rs.next();
                  return rs.getInt(1) == 1;
                }
              }
            });
  }

  private static int queryInt(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getInt(1);
    }
  }
}
