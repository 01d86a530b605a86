package dev.puddle.local;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.dataapi.DataApiConnections;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.functions.CatalogHandler;
import dev.puddle.local.LocalDataApi.Operation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Data API round trips of one catalog request, counted at the test endpoint: {@code loadTable}
 * and a single-table commit, with ordinary metadata and with metadata of several megabytes, which
 * must cross the Data API's 1 MiB response and 4 MiB request limits in pieces.
 *
 * <p>Each request is isolated on the client side: {@code loadTable} is one REST request (the
 * warehouse lookup is cached since {@code GET /v1/config}), and the commit goes through the table's
 * operations, which send one {@code POST} and load nothing around it. Like {@link
 * OperationCostTest}, the requests go to a catalog of their own, over the data-api twin's metastore
 * and storage, that advertises no idempotency keys (Iceberg's client sends one with every mutation
 * once they are advertised): this measures the operations themselves. One test counts a commit with
 * its key, through the twin.
 */
// counts every call the shared data-api twin's endpoint receives: after earlier classes in the same
// JVM it once counted a background worker's transaction too, so it runs apart, in a JVM where no
// other class left work behind (local/pom.xml, alone-tests)
@Tag("alone")
class DataApiCostTest {
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));
  private static final Namespace NAMESPACE = Namespace.of("cost");
  private static final TestTwin TWIN = TestTwin.of(TestTwin.Mode.DATA_API);

  private static DataApiConnections connections;
  private static Database database;
  private static HttpFront server;

  private final LocalDataApi endpoint = TWIN.dataApi();
  private String warehouse;
  private RESTCatalog catalog;

  @BeforeAll
  static void startCatalogWithoutKeys() {
    connections = TWIN.dataApi().connections();
    database = new Database(connections, 2);
    CatalogApi api =
        CatalogApi.builder(
                new CatalogApi.Settings(LocalTwin.REALM, LocalTwin.WAREHOUSE, null),
                database,
                TWIN.local().storage())
            .authenticator(RootCaller.of(LocalTwin.REALM))
            .build();
    server =
        HttpFront.start(
            "127.0.0.1", 0, 1, new ApiGatewayBridge(new CatalogHandler(api), new InFlight()));
  }

  @AfterAll
  static void stopCatalogWithoutKeys() {
    server.close();
    database.close();
    connections.close();
  }

  @BeforeEach
  void setUp() {
    warehouse = TWIN.warehouse("data-api-cost", Map.of());
    catalog = TWIN.catalog(warehouse, Map.of(CatalogProperties.URI, server.uri()));
    catalog.createNamespace(NAMESPACE);
  }

  @AfterEach
  void tearDown() throws Exception {
    catalog.close();
  }

  @Test
  void loadTableIsOneCallAndACommitSeven() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "small");
    catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned());

    Calls load = calls("loadTable", () -> catalog.loadTable(id));
    Table table = catalog.loadTable(id);
    Calls commit = calls("commit", () -> setProperty(table, "k", "v"));

    // the caller's access (AccessQuery) and the table's row, current metadata JSON included
    assertThat(load.total()).isEqualTo(1);
    // the caller's access and the current row in one statement (autocommit), then a transaction
    // of its own: SET LOCAL statement_timeout (the request's deadline), the row locked, the swap,
    // the commit's event
    assertThat(commit.byOperation())
        .containsEntry(Operation.EXECUTE_STATEMENT, 5L)
        .containsEntry(Operation.BEGIN_TRANSACTION, 1L)
        .containsEntry(Operation.COMMIT_TRANSACTION, 1L);
    assertThat(catalog.loadTable(id).properties()).containsEntry("k", "v");
  }

  @Test
  void anIdempotencyKeyAddsOneStatementToACommit() throws Exception {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "keyed");
    catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned());
    try (RESTCatalog keyed = TWIN.catalog(warehouse, Map.of())) {
      Table table = keyed.loadTable(id);
      Calls commit = calls("commit, idempotency key", () -> setProperty(table, "k", "v"));

      // the key claimed, marked applied and given the commit's response as the last statement of
      // the commit's transaction: no statement ahead of the commit, none after it
      assertThat(commit.byOperation())
          .containsEntry(Operation.EXECUTE_STATEMENT, 6L)
          .containsEntry(Operation.BEGIN_TRANSACTION, 1L)
          .containsEntry(Operation.COMMIT_TRANSACTION, 1L);
      assertThat(keyed.loadTable(id).properties()).containsEntry("k", "v");
    }
  }

  @Test
  void metadataOfSeveralMegabytesLoadsAndCommitsInPieces() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "large");
    Map<String, String> properties = new LinkedHashMap<>();
    for (int i = 0; i < 3_000; i++) {
      properties.put("property-" + i, "\"quoted\" value ünïcode 漢字 ".repeat(30) + i);
    }
    // created under another name and renamed, so that the twin kept no version of "large" and
    // the load below reads the row itself
    TableIdentifier created = TableIdentifier.of(NAMESPACE, "large_created");
    catalog.createTable(created, SCHEMA, PartitionSpec.unpartitioned(), properties);
    catalog.renameTable(created, id);

    Table[] loaded = new Table[1];
    Calls load = calls("loadTable, large metadata", () -> loaded[0] = catalog.loadTable(id));
    TableMetadata metadata = ((HasTableOperations) loaded[0]).operations().current();
    System.out.printf(
        Locale.ROOT,
        "[cost] data-api large metadata JSON: %,d characters%n",
        TableMetadataParser.toJson(metadata).length());
    // the version is now kept: loading it again reads the row without its metadata
    Calls again = calls("loadTable again, large metadata", () -> catalog.loadTable(id));
    Calls commit = calls("commit, large metadata", () -> setProperty(loaded[0], "k", "v"));

    assertThat(loaded[0].properties()).containsAllEntriesOf(properties);
    assertThat(catalog.loadTable(id).properties()).containsEntry("k", "v");
    assertThat(endpoint.largestResponse()).isLessThanOrEqualTo(1 << 20);
    // the row comes in pieces: the first call, then in a transaction of its own the query
    // again and its pieces
    assertThat(load.byOperation())
        .containsEntry(Operation.BEGIN_TRANSACTION, 1L)
        .containsEntry(Operation.COMMIT_TRANSACTION, 1L);
    assertThat(load.total()).isGreaterThan(4);
    assertThat(again.byOperation())
        .containsEntry(Operation.EXECUTE_STATEMENT, 1L)
        .containsEntry(Operation.BEGIN_TRANSACTION, 0L);
    // the commit reads the row the same way, then writes the new metadata ahead in pieces
    assertThat(commit.byOperation())
        .containsEntry(Operation.BEGIN_TRANSACTION, 2L)
        .containsEntry(Operation.COMMIT_TRANSACTION, 2L);
  }

  private static void setProperty(Table table, String key, String value) {
    TableOperations operations = ((HasTableOperations) table).operations();
    TableMetadata base = operations.current();
    operations.commit(
        base, TableMetadata.buildFrom(base).setProperties(Map.of(key, value)).build());
  }

  /**
   * What every statement of the change feed's relay names (its claim, or the events still to be
   * published), and no request's.
   */
  private static final List<String> RELAY_MARKS = List.of("event_relay", "published_at IS NULL");

  private record Calls(String what, Map<Operation, Long> byOperation) {
    long total() {
      return byOperation.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "[cost] data-api %-28s Data API calls=%d: %s",
          what,
          total(),
          byOperation.entrySet().stream()
              .map(entry -> entry.getKey() + "=" + entry.getValue())
              .collect(Collectors.joining(" ")));
    }
  }

  /**
   * The Data API calls {@code action} makes, but the statements of the change feed's relay: nudged
   * by a commit, it runs beside the request, through the same endpoint. Each call is in the
   * endpoint's log with its SQL, read in one step, so a relay statement is either counted and left
   * out or not counted at all.
   */
  private Calls calls(String what, Runnable action) {
    int from = endpoint.position();
    action.run();
    List<LocalDataApi.Call> own =
        endpoint.callsSince(from).stream()
            .filter(call -> RELAY_MARKS.stream().noneMatch(call::names))
            .toList();
    Calls calls = new Calls(what, LocalDataApi.byOperation(own));
    System.out.println(calls);
    return calls;
  }
}
