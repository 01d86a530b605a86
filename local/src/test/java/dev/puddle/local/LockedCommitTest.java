package dev.puddle.local;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.storage.Storage;
import dev.puddle.functions.CatalogHandler;
import dev.puddle.local.OperationCostTest.S3Counter;
import dev.puddle.local.OperationCostTest.S3Kind;
import dev.puddle.local.OperationCostTest.S3Request;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A commit waits while another transaction holds its table's row, as a concurrent commit does, and
 * then commits against what that transaction left: one whose requirements still hold lands on top
 * of it, one whose requirements no longer hold fails with 409, and neither writes a metadata file
 * for nothing. The other transaction is the test's own: it locks the row with {@code SELECT … FOR
 * UPDATE} and changes the table as a commit would, once the commit under test waits for it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockedCommitTest {
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));
  private static final Namespace NAMESPACE = Namespace.of("locked");
  private static final Duration TIME_LIMIT = Duration.ofSeconds(30);

  private static S3Counter s3;
  private static Storage storage;
  private static TestEndpoint endpoint;

  private final ExecutorService threads = Executors.newSingleThreadExecutor();
  private String warehouse;
  private RESTCatalog catalog;

  @BeforeAll
  static void startCountedCatalog() throws Exception {
    LocalTwin twin = TestTwin.get();
    s3 = S3Counter.start(URI.create(twin.s3Endpoint()));
    storage = s3.storage();
    CatalogApi api =
        CatalogApi.builder(
                new CatalogApi.Settings(LocalTwin.REALM, LocalTwin.WAREHOUSE, null),
                twin.database(),
                storage)
            .authenticator(RootCaller.of(LocalTwin.REALM))
            .build();
    endpoint = TestEndpoint.start(new CatalogHandler(api));
  }

  @AfterAll
  static void stopCountedCatalog() throws Exception {
    endpoint.close();
    storage.close();
    s3.close();
  }

  @BeforeEach
  void setUp() {
    warehouse = TestTwin.newWarehouse("locked");
    catalog = endpoint.client(warehouse);
    catalog.createNamespace(NAMESPACE);
  }

  @AfterEach
  void tearDown() throws Exception {
    threads.shutdownNow();
    catalog.close();
  }

  @Test
  void aCommitWhoseRequirementsStillHoldLandsOnTopOfTheChangeItWaitedFor() throws Exception {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "properties");
    catalog.createTable(id, SCHEMA);
    Table table = catalog.loadTable(id);

    Outcome outcome =
        commitWhileHeld(
            id,
            () -> table.updateProperties().set("mine", "1").commit(),
            current ->
                TableMetadata.buildFrom(current).setProperties(Map.of("theirs", "2")).build());

    assertThat(outcome.failure()).isNull();
    assertThat(catalog.loadTable(id).properties())
        .containsEntry("mine", "1")
        .containsEntry("theirs", "2");
    // one file, the commit's: no write lost a race and was deleted
    assertThat(outcome.written()).extracting(S3Request::kind).containsExactly(S3Kind.PUT);
  }

  @Test
  void aCommitWhoseRequirementsNoLongerHoldFailsWithoutWritingAFile() throws Exception {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "schema");
    catalog.createTable(id, SCHEMA);
    Table table = catalog.loadTable(id);

    Outcome outcome =
        commitWhileHeld(
            id,
            () -> table.updateSchema().addColumn("mine", Types.StringType.get()).commit(),
            current -> {
              int column = current.lastColumnId() + 1;
              List<Types.NestedField> columns = new ArrayList<>(current.schema().columns());
              columns.add(optional(column, "theirs", Types.StringType.get()));
              return TableMetadata.buildFrom(current)
                  .setCurrentSchema(new Schema(columns), column)
                  .build();
            });

    assertThat(outcome.failure()).isInstanceOf(CommitFailedException.class);
    Schema schema = catalog.loadTable(id).schema();
    assertThat(schema.findField("theirs")).isNotNull();
    assertThat(schema.findField("mine")).isNull();
    assertThat(outcome.written()).isEmpty();
  }

  /** How a commit raced against the test's transaction: its failure (null if none) and files. */
  private record Outcome(Throwable failure, List<S3Request> written) {}

  /**
   * Runs {@code commit} while the test's transaction holds the table's row; once the commit waits
   * for it, the transaction commits {@code theirs}, a change of the table's metadata. Returns how
   * the commit ended and the metadata files written or deleted meanwhile.
   */
  private Outcome commitWhileHeld(
      TableIdentifier id, Runnable commit, UnaryOperator<TableMetadata> theirs) throws Exception {
    try (RowHolder holder = RowHolder.lock(warehouse, id)) {
      int before = s3.requests().size();
      Future<?> committed = threads.submit(commit);
      holder.awaitWaiter();
      holder.commit(theirs);
      Throwable failure = null;
      try {
        committed.get(TIME_LIMIT.toSeconds(), TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        failure = e.getCause();
      }
      return new Outcome(failure, metadataWrites(before));
    }
  }

  /** The metadata files written or deleted through the catalog since request {@code from}. */
  private static List<S3Request> metadataWrites(int from) {
    List<S3Request> requests = s3.requests();
    synchronized (requests) {
      return requests.subList(from, requests.size()).stream()
          .filter(r -> r.kind() == S3Kind.PUT || r.kind() == S3Kind.DELETE)
          .filter(r -> r.target().contains(".metadata.json"))
          .toList();
    }
  }

  /**
   * A transaction of the test's own holding a table's row, as a concurrent commit holds it, and
   * committing a change of the table's metadata as one would.
   */
  private static final class RowHolder implements AutoCloseable {
    private final Connection connection;
    private final String id;
    private final String metadataLocation;
    private final String metadataJson;
    private final long deadline = System.nanoTime() + TIME_LIMIT.toNanos();

    private RowHolder(Connection connection, String id, String location, String json) {
      this.connection = connection;
      this.id = id;
      this.metadataLocation = location;
      this.metadataJson = json;
    }

    static RowHolder lock(String warehouse, TableIdentifier table) throws SQLException {
      Connection connection =
          DriverManager.getConnection(TestTwin.get().jdbcUrl(), "postgres", null);
      connection.setAutoCommit(false);
      try (PreparedStatement statement =
          connection.prepareStatement(
              "SELECT o.id::text, o.metadata_location, o.metadata FROM catalog_object o"
                  + " JOIN namespace n ON n.id = o.namespace_id"
                  + " JOIN warehouse w ON w.id = n.warehouse_id"
                  + " WHERE w.name = ? AND n.levels = ? AND o.name = ? FOR UPDATE OF o")) {
        statement.setString(1, warehouse);
        statement.setArray(2, connection.createArrayOf("text", table.namespace().levels()));
        statement.setString(3, table.name());
        try (ResultSet rs = statement.executeQuery()) {
          assertThat(rs.next()).as("the row of %s", table).isTrue();
          return new RowHolder(connection, rs.getString(1), rs.getString(2), rs.getString(3));
        }
      }
    }

    /** Returns once another session waits for a lock this transaction holds. */
    void awaitWaiter() throws SQLException {
      try (PreparedStatement statement =
          connection.prepareStatement(
              "SELECT count(*) FROM pg_locks w JOIN pg_locks h"
                  + " ON h.transactionid = w.transactionid AND h.granted"
                  + " WHERE NOT w.granted AND w.locktype = 'transactionid'"
                  + " AND h.pid = pg_backend_pid()")) {
        while (true) {
          try (ResultSet rs = statement.executeQuery()) {
            rs.next();
            if (rs.getLong(1) > 0) {
              return;
            }
          }
          assertThat(System.nanoTime()).as("a commit waits for the row").isLessThan(deadline);
          Thread.onSpinWait();
        }
      }
    }

    /** Writes {@code change} of the table's metadata, points the row at it and commits. */
    void commit(UnaryOperator<TableMetadata> change) throws SQLException {
      TableMetadata current = TableMetadataParser.fromJson(metadataLocation, metadataJson);
      TableMetadata changed = change.apply(current);
      String location =
          current.location() + "/metadata/99999-" + UUID.randomUUID() + ".metadata.json";
      // straight to S3, not through the counter: only the commit under test is counted
      TableMetadataParser.overwrite(changed, TestTwin.get().storage().io().newOutputFile(location));
      try (PreparedStatement statement =
          connection.prepareStatement(
              "UPDATE catalog_object SET metadata_location = ?, metadata = ?"
                  + " WHERE id = ?::uuid")) {
        statement.setString(1, location);
        statement.setString(2, TableMetadataParser.toJson(changed));
        statement.setString(3, id);
        statement.executeUpdate();
      }
      connection.commit();
    }

    @Override
    public void close() throws SQLException {
      connection.rollback();
      connection.close();
    }
  }
}
