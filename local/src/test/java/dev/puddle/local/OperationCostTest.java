package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.Route;
import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.ForwardingConnectionFactory;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.storage.Storage;
import dev.puddle.functions.CatalogHandler;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.io.SupportsStorageCredentials;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What one catalog operation costs: how many SQL statements Puddle executes and how many S3
 * requests it makes, by kind, for {@code createTable}, {@code loadTable} and a single-table commit
 * (an append of one data file), as Iceberg's own {@link RESTCatalog} client issues them.
 *
 * <p>Nothing of Puddle is mocked. The test runs a second catalog endpoint next to the shared twin —
 * the real {@link CatalogHandler} behind the real API Gateway bridge, over a {@link CatalogApi} —
 * whose metastore and storage are the twin's PostgreSQL and S3 seen through two counters:
 *
 * <ul>
 *   <li>SQL: every pgjdbc connection is wrapped in a {@link Proxy} that records each statement
 *       executed ({@code execute*} on prepared, callable and plain statements) and each transaction
 *       commit;
 *   <li>S3: the catalog's S3 endpoint is a byte-for-byte TCP forwarder on loopback in front of the
 *       twin's S3 server that parses each HTTP request line. Requests are relayed unchanged (the
 *       {@code Host} header included), so SigV4 signatures still verify.
 * </ul>
 *
 * <p>The engine (the REST client) is given the twin's S3 endpoint directly, so the manifests it
 * writes are not counted: only Puddle's own requests pass the forwarder. Counts are taken per
 * catalog request, around the Lambda handler's invocation.
 */
class OperationCostTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static SqlCounter sql;
  private static S3Counter s3;
  private static Database database;
  private static Storage storage;
  private static MeasuringHandler handler;
  private static HttpFront server;
  private static MeasuringHandler keyedHandler;
  private static HttpFront keyedServer;

  @BeforeAll
  static void startMeasuredCatalog() throws IOException {
    LocalTwin twin = TestTwin.get();
    sql = new SqlCounter();
    s3 = S3Counter.start(URI.create(twin.s3Endpoint()));
    database =
        new Database(sql.wrap(PostgresConnections.factory(twin.jdbcUrl(), "postgres", null)), 2);
    storage = s3.storage();
    // without idempotency keys, which Iceberg's client sends once /v1/config advertises them:
    // this measures the operations themselves (a key adds a statement to a mutation, which
    // the catalog next to it, with keys, measures)
    CatalogApi api =
        CatalogApi.builder(
                new CatalogApi.Settings(LocalTwin.REALM, LocalTwin.WAREHOUSE, null),
                database,
                storage)
            .authenticator(RootCaller.of(LocalTwin.REALM))
            .credentialVendor(twin.credentialVendor())
            .requestSigner(twin.requestSigner())
            .build();
    handler = new MeasuringHandler(new CatalogHandler(api), sql, s3);
    server = HttpFront.start("127.0.0.1", 0, 1, new ApiGatewayBridge(handler, new InFlight()));
    CatalogApi keyed =
        CatalogApi.builder(
                new CatalogApi.Settings(LocalTwin.REALM, LocalTwin.WAREHOUSE), database, storage)
            .authenticator(RootCaller.of(LocalTwin.REALM))
            .credentialVendor(twin.credentialVendor())
            .requestSigner(twin.requestSigner())
            .build();
    keyedHandler = new MeasuringHandler(new CatalogHandler(keyed), sql, s3);
    keyedServer =
        HttpFront.start("127.0.0.1", 0, 1, new ApiGatewayBridge(keyedHandler, new InFlight()));
  }

  @AfterAll
  static void stopMeasuredCatalog() {
    if (server != null) {
      server.close();
    }
    if (keyedServer != null) {
      keyedServer.close();
    }
    if (database != null) {
      database.close();
    }
    if (storage != null) {
      storage.close();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void loadTableReadsPostgresOnlyAndCommitWritesOneMetadataFile() throws IOException {
    String warehouse = TestTwin.newWarehouse("cost");
    Namespace namespace = Namespace.of("sales");
    TableIdentifier identifier = TableIdentifier.of(namespace, "orders");
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "amount", Types.DoubleType.get()));

    try (RESTCatalog catalog = client(warehouse)) { // GET /v1/config caches the warehouse lookup
      catalog.createNamespace(namespace);

      handler.clear();
      catalog.createTable(identifier, schema);
      Call create = handler.only(Route.CREATE_TABLE);

      handler.clear();
      Table table = catalog.loadTable(identifier);
      Call load = handler.only(Route.LOAD_TABLE);

      DataFile file =
          DataFiles.builder(PartitionSpec.unpartitioned())
              .withPath(table.location() + "/data/00000-0-orders.parquet")
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(1024)
              .withRecordCount(1)
              .build();
      handler.clear();
      table.newAppend().appendFile(file).commit();
      Call commit = handler.only(Route.UPDATE_TABLE);
      // everything the Java client asked for around the append: it also loads the table before
      // and after committing, and reports metrics
      Call exchange = handler.total();

      System.out.println(create.line("createTable"));
      System.out.println(load.line("loadTable"));
      System.out.println(commit.line("commit (append of 1 data file)"));
      System.out.println(exchange.line("append, whole client exchange"));

      // Every catalog request starts with one statement that reads the caller's access
      // (AccessQuery): the realm's access version, and only if it moved since this environment
      // last read them, the caller's principal roles, their catalog roles in this warehouse and
      // those roles' grants. Authorization costs that one statement and nothing else; a load
      // reads its table's row in the same statement.
      //
      // createTable: 1 S3 PUT (v0 metadata.json, uploading while the transaction's statements
      // run) and no reads. Five SQL statements, six round trips:
      //  1. SELECT * FROM caller_access(…) (the caller's access)
      //  2. SELECT * FROM create_site(…) (V18: BaseMetastoreCatalog's create check, does the
      //     table exist?, and the namespace's location, under which the default table location
      //     lies, in one statement: Namespaces.createSite)
      //  in one transaction (CatalogObjects.create, 1 COMMIT once the file is written):
      //  3. SELECT 1 (sent together with BEGIN: finds a kept connection broken before any work;
      //     no SET, which would pin the session in RDS Proxy)
      //  4. SELECT * FROM create_catalog_object(…) (V18: the warehouse's location lock, then, in
      //     statements that see every create that held it before, the overlap checks and the
      //     insert, each with a plan the server connection keeps)
      //  5. SELECT record_catalog_events(…) (V20: the feed's advisory lock, held to COMMIT, then
      //     the change's event, each with a plan the server connection keeps)
      assertThat(create.s3Kinds()).as(create.describe()).isEqualTo(kinds(S3Kind.PUT, 1));
      assertThat(create.sql()).as(create.describe()).hasSize(5);
      assertThat(create.sql().get(0)).contains("FROM caller_access(");
      assertThat(create.sql().get(1)).startsWith("SELECT * FROM create_site(");
      assertThat(create.sql().get(2)).isEqualTo("SELECT 1");
      assertThat(create.sql().get(3)).startsWith("SELECT * FROM create_catalog_object(");
      assertThat(create.sql().get(4)).startsWith("SELECT record_catalog_events(");
      assertThat(create.roundTrips()).isEqualTo(6);
      assertThat(create.commits()).as(create.describe()).isEqualTo(1);

      // loadTable: PostgreSQL only, one statement: the caller's access and the table's row,
      // current metadata JSON included (the warehouse lookup is cached since GET /v1/config).
      assertThat(load.s3()).as(load.describe()).isEmpty();
      assertThat(load.sql()).as(load.describe()).hasSize(1);
      assertThat(load.sql().get(0)).contains("FROM caller_access_and_object(");

      // commit: exactly one S3 request, the PUT of the new metadata.json; no GET, no HEAD.
      // Five SQL statements, six round trips:
      //  1. SELECT * FROM caller_access_and_object(…) (the caller's access and the table's row,
      //     its metadata left out: this environment parsed that version), autocommit; the
      //     requirements are checked against it
      //  then one transaction (1 COMMIT), the file uploading meanwhile:
      //  2. SELECT 1 (sent together with BEGIN: finds a kept connection broken before any work)
      //  3. SELECT * FROM catalog_object_locked(…) (V18: the row locked, FOR UPDATE: still that
      //     version?)
      //  4. UPDATE catalog_object SET metadata_location, metadata … WHERE id = ? AND
      //     metadata_location = ? (the swap)
      //  5. SELECT record_catalog_events(…) (V20: the feed's lock, then the commit's event)
      // The response is built from the committed metadata, with no second SELECT.
      assertThat(commit.s3Kinds()).as(commit.describe()).isEqualTo(kinds(S3Kind.PUT, 1));
      assertThat(commit.s3().getFirst().target()).endsWith(".metadata.json");
      assertThat(commit.sql()).as(commit.describe()).hasSize(5);
      assertThat(commit.sql().get(0)).contains("FROM caller_access_and_object(");
      assertThat(commit.sql().get(1)).isEqualTo("SELECT 1");
      assertThat(commit.sql().get(2)).startsWith("SELECT * FROM catalog_object_locked(");
      assertThat(commit.sql().get(3)).startsWith("UPDATE catalog_object");
      assertThat(commit.sql().get(4)).startsWith("SELECT record_catalog_events(");
      assertThat(commit.commits()).as(commit.describe()).isEqualTo(1);
      assertThat(commit.roundTrips()).isEqualTo(6);
      assertThat(load.roundTrips()).isEqualTo(1);

      // however many loads the client adds around its commit, they cost S3 nothing
      assertThat(exchange.s3Kinds()).as(exchange.describe()).isEqualTo(kinds(S3Kind.PUT, 1));

      // the S3 counter sees reads and listings too: the zeros above are not blind spots
      int before = s3.requests().size();
      InputFile metadataFile =
          storage
              .io()
              .newInputFile(
                  ((HasTableOperations) table).operations().current().metadataFileLocation());
      metadataFile.getLength();
      try (InputStream in = metadataFile.newStream()) {
        in.readAllBytes();
      }
      ((SupportsPrefixOperations) storage.io())
          .listPrefix(table.location() + "/metadata")
          .forEach(info -> {});
      assertThat(s3.requests().subList(before, s3.requests().size()))
          .extracting(S3Request::kind)
          .containsExactly(S3Kind.HEAD, S3Kind.GET, S3Kind.LIST);
    }
  }

  /**
   * An {@code Idempotency-Key}, which Iceberg's client sends with every mutation once {@code
   * /v1/config} advertises a lifetime, adds one statement and no transaction to a create or a
   * commit: the key claimed, with the response the committed version decides, as the last statement
   * of the change's own transaction.
   */
  @Test
  void anIdempotencyKeyAddsOneStatementToACreateAndACommit() throws IOException {
    String warehouse = TestTwin.newWarehouse("cost-keyed");
    Namespace namespace = Namespace.of("sales");
    TableIdentifier identifier = TableIdentifier.of(namespace, "orders");
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    try (RESTCatalog catalog =
        client(warehouse, Map.of(CatalogProperties.URI, keyedServer.uri()))) {
      catalog.createNamespace(namespace);

      keyedHandler.clear();
      Table table = catalog.createTable(identifier, schema);
      Call create = keyedHandler.only(Route.CREATE_TABLE);

      keyedHandler.clear();
      table.updateProperties().set("owner", "sales").commit();
      Call commit = keyedHandler.only(Route.UPDATE_TABLE);

      System.out.println(create.line("createTable, idempotency key"));
      System.out.println(commit.line("commit, idempotency key"));

      // createTable: the five statements of loadTableReadsPostgresOnly…, with, before the event
      //  5. SELECT * FROM write_idempotency_key(true, …) (V18: if the transaction wrote, deletes a
      //     few long-expired keys and claims the key with the response, INSERT … ON CONFLICT DO
      //     UPDATE … WHERE the key is free or this attempt's), so that the event, whose statement
      //     takes the event feed's lock, stays the last statement before COMMIT
      // six statements, seven round trips (six without a key); nothing after the COMMIT
      assertThat(create.sql()).as(create.describe()).hasSize(6);
      assertThat(create.sql().get(4)).startsWith("SELECT * FROM write_idempotency_key(");
      assertThat(create.sql().get(5)).startsWith("SELECT record_catalog_events(");
      assertThat(create.commits()).as(create.describe()).isEqualTo(1);
      assertThat(create.roundTrips()).isEqualTo(7);

      // the commit: the five statements of a commit and the claim, with the response, before the
      // event: six statements, seven round trips (six without a key)
      assertThat(commit.sql()).as(commit.describe()).hasSize(6);
      assertThat(commit.sql().get(0)).contains("FROM caller_access_and_object(");
      assertThat(commit.sql().get(1)).isEqualTo("SELECT 1");
      assertThat(commit.sql().get(3)).startsWith("UPDATE catalog_object");
      assertThat(commit.sql().get(4)).startsWith("SELECT * FROM write_idempotency_key(");
      assertThat(commit.sql().get(5)).startsWith("SELECT record_catalog_events(");
      assertThat(commit.commits()).as(commit.describe()).isEqualTo(1);
      assertThat(commit.roundTrips()).isEqualTo(7);
    }
  }

  /**
   * A page of the change-event feed is one query after the access read, whatever the filters and
   * the page: two index range scans in id order ({@code catalog_event_feed} on the warehouse and
   * the id, {@code catalog_event_realm_feed} for the realm's management events), merged and cut at
   * the page size. The next page, from the continuation token, costs the same.
   */
  @Test
  void aPageOfEventsIsOneIndexedQuery() throws Exception {
    String warehouse = TestTwin.newWarehouse("cost-events");
    TableIdentifier identifier = TableIdentifier.of(Namespace.of("sales"), "orders");
    try (RESTCatalog catalog = client(warehouse)) {
      catalog.createNamespace(identifier.namespace());
      Table table =
          catalog.createTable(
              identifier, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
      table.updateProperties().set("owner", "sales").commit();
    }
    handler.clear();
    // the realm's management events (other tests' warehouses) are left out by type
    JsonNode first =
        queryEvents(warehouse, "{\"page-size\":2,\"object-types\":[\"namespace\",\"table\"]}");
    Call firstPage = handler.only(Route.QUERY_EVENTS);
    handler.clear();
    JsonNode second =
        queryEvents(
            warehouse,
            "{\"page-size\":2,\"continuation-token\":\""
                + first.get("continuation-token").asText()
                + "\",\"object-types\":[\"table\"]}");
    Call secondPage = handler.only(Route.QUERY_EVENTS);
    System.out.println(firstPage.line("queryEvents, first page"));
    System.out.println(secondPage.line("queryEvents, next page"));

    assertThat(first.get("events"))
        .extracting(e -> e.at("/operation/operation-type").asText())
        .containsExactly("create-namespace", "create-table");
    assertThat(second.get("events"))
        .extracting(e -> e.at("/operation/operation-type").asText())
        .containsExactly("update-table");
    for (Call page : List.of(firstPage, secondPage)) {
      assertThat(page.sql()).as(page.describe()).hasSize(2);
      assertThat(page.sql().get(0)).contains("FROM caller_access(");
      assertThat(page.sql().get(1)).startsWith("SELECT * FROM ((SELECT id");
      assertThat(page.s3()).isEmpty();
      assertThat(page.commits()).isZero();
    }
  }

  private static JsonNode queryEvents(String warehouse, String body) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.uri() + "/v1/" + warehouse + "/events"))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  /**
   * A load that asks for vended credentials (PyIceberg's default) costs the same one statement: the
   * caller's access read with the table's row decides both the load and the credentials.
   */
  @Test
  void aLoadWithVendedCredentialsIsOneStatementToo() throws IOException {
    String warehouse = TestTwin.newWarehouse("cost-vended");
    TableIdentifier identifier = TableIdentifier.of(Namespace.of("sales"), "orders");
    try (RESTCatalog catalog =
        client(warehouse, Map.of("header.X-Iceberg-Access-Delegation", "vended-credentials"))) {
      catalog.createNamespace(identifier.namespace());
      catalog.createTable(
          identifier, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));

      handler.clear();
      Table table = catalog.loadTable(identifier);
      Call load = handler.only(Route.LOAD_TABLE);
      System.out.println(load.line("loadTable with vended credentials"));

      assertThat(((SupportsStorageCredentials) table.io()).credentials()).hasSize(1);
      assertThat(load.sql()).as(load.describe()).hasSize(1);
      assertThat(load.sql().get(0)).contains("FROM caller_access_and_object(");
      assertThat(load.roundTrips()).isEqualTo(1);
      assertThat(load.s3()).as(load.describe()).isEmpty();
    }
  }

  /**
   * Remote signing, one call per S3 request of an engine, is one statement and nothing else: the
   * caller's access read with the table's row (its metadata left out once the table's reach is kept
   * for that version), no write, no transaction, no S3 request of the catalog's.
   */
  @Test
  void aSignedRequestIsOneStatementAndNoWrite() throws IOException {
    String warehouse = TestTwin.newWarehouse("cost-signed");
    TableIdentifier identifier = TableIdentifier.of(Namespace.of("sales"), "orders");
    try (RESTCatalog catalog =
        client(warehouse, Map.of("header.X-Iceberg-Access-Delegation", "remote-signing"))) {
      catalog.createNamespace(identifier.namespace());
      Table table =
          catalog.createTable(
              identifier, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));

      handler.clear();
      for (int i = 0; i < 3; i++) {
        try (OutputStream out =
            table.io().newOutputFile(table.location() + "/data/" + i + ".csv").create()) {
          out.write('x');
        }
      }
      List<Call> signs = handler.all(Route.SIGN_REQUEST);
      signs.forEach(sign -> System.out.println(sign.line("signRequest")));

      // per file a HEAD (create() checks that it does not exist) and a PUT
      assertThat(signs).hasSize(6);
      for (Call sign : signs) {
        assertThat(sign.sql()).as(sign.describe()).hasSize(1);
        assertThat(sign.sql().get(0)).contains("FROM caller_access_and_object(");
        assertThat(sign.commits()).as(sign.describe()).isZero();
        assertThat(sign.s3()).as(sign.describe()).isEmpty();
      }
    }
  }

  /**
   * A page of tables, of views or of a namespace's children is read in the access read's own
   * statement (migration V16), the namespace's id looked up inside it: the page costs no round trip
   * of its own, and neither does the 404 of a namespace that does not exist.
   */
  @Test
  void aListingPageIsOneStatementAfterTheAccessRead() throws IOException {
    String warehouse = TestTwin.newWarehouse("cost-listing");
    Namespace namespace = Namespace.of("sales");
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    try (RESTCatalog catalog = client(warehouse, Map.of("rest-page-size", "1"))) {
      catalog.createNamespace(namespace);
      catalog.createNamespace(Namespace.of("sales", "eu"));
      catalog.createNamespace(Namespace.of("sales", "us"));
      catalog.createTable(TableIdentifier.of(namespace, "orders"), schema);
      catalog.createTable(TableIdentifier.of(namespace, "returns"), schema);
      for (String view : List.of("recent", "open")) {
        catalog
            .buildView(TableIdentifier.of(namespace, view))
            .withSchema(schema)
            .withDefaultNamespace(namespace)
            .withQuery("spark", "SELECT id FROM orders")
            .create();
      }
      // two entries of each kind, one per page: a first page with a token and a last one
      Map<Route, Runnable> listings = new EnumMap<>(Route.class);
      listings.put(Route.LIST_TABLES, () -> catalog.listTables(namespace));
      listings.put(Route.LIST_VIEWS, () -> catalog.listViews(namespace));
      listings.put(Route.LIST_NAMESPACES, () -> catalog.listNamespaces(namespace));
      listings.forEach(
          (route, listing) -> {
            handler.clear();
            listing.run();
            List<Call> pages = handler.all(route);
            pages.forEach(page -> System.out.println(page.line(route.operationId() + " page")));
            assertThat(pages).hasSize(2);
            for (Call page : pages) {
              assertThat(page.sql()).as(page.describe()).hasSize(1);
              assertThat(page.sql().get(0))
                  .contains(
                      route == Route.LIST_NAMESPACES
                          ? "FROM caller_access_and_namespace_names("
                          : "FROM caller_access_and_object_names(");
              assertThat(page.s3()).isEmpty();
              assertThat(page.commits()).isZero();
            }
          });

      handler.clear();
      assertThatThrownBy(() -> catalog.listTables(Namespace.of("nowhere")))
          .isInstanceOf(NoSuchNamespaceException.class);
      assertThat(handler.only(Route.LIST_TABLES).sql()).hasSize(1);
    }
  }

  /**
   * The cost of every catalog operation Iceberg's client sends, printed as a table: each reads the
   * caller's access exactly once, in its first statement, however its authorization is decided (by
   * its path, by its body, or both for a table response with credentials).
   */
  @Test
  void everyOperationReadsTheCallersAccessOnceAndStatesItsCost() throws IOException {
    String warehouse = TestTwin.newWarehouse("cost-all");
    Namespace namespace = Namespace.of("sales");
    TableIdentifier orders = TableIdentifier.of(namespace, "orders");
    TableIdentifier renamed = TableIdentifier.of(namespace, "orders_v2");
    TableIdentifier view = TableIdentifier.of(namespace, "recent");
    TableIdentifier renamedView = TableIdentifier.of(namespace, "recent_v2");
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    Map<Route, Call> costs = new EnumMap<>(Route.class);
    try (RESTCatalog catalog = client(warehouse)) {
      measure(costs, Route.CREATE_NAMESPACE, () -> catalog.createNamespace(namespace));
      measure(costs, Route.LIST_NAMESPACES, catalog::listNamespaces);
      measure(costs, Route.LOAD_NAMESPACE, () -> catalog.loadNamespaceMetadata(namespace));
      measure(costs, Route.NAMESPACE_EXISTS, () -> catalog.namespaceExists(namespace));
      measure(
          costs,
          Route.UPDATE_NAMESPACE_PROPERTIES,
          () ->
              catalog.setProperties(namespace, new java.util.HashMap<>(Map.of("owner", "sales"))));
      measure(costs, Route.CREATE_TABLE, () -> catalog.createTable(orders, schema));
      measure(costs, Route.LIST_TABLES, () -> catalog.listTables(namespace));
      measure(costs, Route.TABLE_EXISTS, () -> catalog.tableExists(orders));
      Table table = catalog.loadTable(orders);
      measure(
          costs, Route.UPDATE_TABLE, () -> table.updateProperties().set("owner", "sales").commit());
      measure(costs, Route.RENAME_TABLE, () -> catalog.renameTable(orders, renamed));
      measure(
          costs,
          Route.CREATE_VIEW,
          () ->
              catalog
                  .buildView(view)
                  .withSchema(schema)
                  .withDefaultNamespace(namespace)
                  .withQuery("spark", "SELECT id FROM orders_v2")
                  .create());
      measure(costs, Route.LIST_VIEWS, () -> catalog.listViews(namespace));
      measure(costs, Route.LOAD_VIEW, () -> catalog.loadView(view));
      measure(costs, Route.RENAME_VIEW, () -> catalog.renameView(view, renamedView));
      measure(costs, Route.DROP_VIEW, () -> catalog.dropView(renamedView));
      measure(costs, Route.DROP_TABLE, () -> catalog.dropTable(renamed, false));
      measure(costs, Route.DROP_NAMESPACE, () -> catalog.dropNamespace(namespace));
    }
    costs.forEach((route, call) -> System.out.println(call.line(route.operationId())));
    costs.forEach(
        (route, call) -> {
          List<String> accessReads =
              call.sql().stream().filter(sql -> sql.contains("FROM caller_access")).toList();
          assertThat(accessReads).as(call.describe()).hasSize(1);
          assertThat(call.sql().get(0)).as(call.describe()).contains("FROM caller_access");
        });
    assertThat(costs).hasSize(17);
  }

  /** Runs {@code operation} and keeps what its one request of {@code route} cost. */
  private static void measure(Map<Route, Call> costs, Route route, Runnable operation) {
    handler.clear();
    operation.run();
    costs.put(route, handler.last(route));
  }

  private RESTCatalog client(String warehouse) {
    return client(warehouse, Map.of());
  }

  private RESTCatalog client(String warehouse, Map<String, String> extra) {
    // The engine reaches S3 directly, not through the counting forwarder the catalog uses.
    Map<String, String> properties = new java.util.HashMap<>();
    properties.put(CatalogProperties.URI, server.uri());
    properties.put(S3FileIOProperties.ENDPOINT, TestTwin.get().s3Endpoint());
    properties.putAll(extra);
    return TestTwin.restCatalog(warehouse, properties);
  }

  private static Map<S3Kind, Integer> kinds(S3Kind kind, int count) {
    Map<S3Kind, Integer> result = new EnumMap<>(S3Kind.class);
    result.put(kind, count);
    return result;
  }

  // ---------------------------------------------------------------------------------------------
  // per-request measurement

  /** What one catalog request cost. */
  record Call(String routeKey, int requests, List<String> sql, int commits, List<S3Request> s3) {
    Call {
      // the SDK resends a request whose pooled connection the server had just closed; the same
      // method on the same key is one request to the object, whichever connection carried it
      s3 = List.copyOf(new java.util.LinkedHashSet<>(s3));
    }

    static Call total(List<Call> calls) {
      List<String> sql = new ArrayList<>();
      List<S3Request> s3 = new ArrayList<>();
      calls.forEach(
          call -> {
            sql.addAll(call.sql());
            s3.addAll(call.s3());
          });
      return new Call(
          calls.stream().map(Call::routeKey).collect(Collectors.joining(" + ")),
          calls.stream().mapToInt(Call::requests).sum(),
          sql,
          calls.stream().mapToInt(Call::commits).sum(),
          s3);
    }

    /**
     * Round trips to PostgreSQL: one per statement (pgjdbc sends BEGIN with a transaction's first
     * statement) and one per COMMIT.
     */
    int roundTrips() {
      return sql.size() + commits;
    }

    Map<S3Kind, Integer> s3Kinds() {
      Map<S3Kind, Integer> result = new EnumMap<>(S3Kind.class);
      s3.forEach(request -> result.merge(request.kind(), 1, Integer::sum));
      return result;
    }

    /** One line for the release notes. */
    String line(String operation) {
      Map<S3Kind, Integer> kinds = s3Kinds();
      String byKind =
          List.of(S3Kind.GET, S3Kind.HEAD, S3Kind.PUT, S3Kind.DELETE, S3Kind.LIST).stream()
              .map(kind -> kind + "=" + kinds.getOrDefault(kind, 0))
              .collect(Collectors.joining(" "));
      int other = kinds.getOrDefault(S3Kind.POST, 0) + kinds.getOrDefault(S3Kind.OTHER, 0);
      return String.format(
          Locale.ROOT,
          "[cost] %-32s catalog requests=%d | SQL statements=%d (transaction commits=%d,"
              + " round trips=%d) | S3 requests=%d: %s%s",
          operation,
          requests,
          sql.size(),
          commits,
          roundTrips(),
          s3.size(),
          byKind,
          other == 0 ? "" : " OTHER=" + other);
    }

    String describe() {
      StringBuilder out = new StringBuilder(routeKey).append('\n');
      sql.forEach(statement -> out.append("  SQL ").append(statement).append('\n'));
      s3.forEach(request -> out.append("  S3  ").append(request).append('\n'));
      return out.toString();
    }
  }

  /** Wraps the Lambda handler and records, per invocation, the SQL and S3 work it caused. */
  static final class MeasuringHandler implements RequestStreamHandler {
    private final RequestStreamHandler delegate;
    private final SqlCounter sql;
    private final S3Counter s3;
    private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());

    MeasuringHandler(RequestStreamHandler delegate, SqlCounter sql, S3Counter s3) {
      this.delegate = delegate;
      this.sql = sql;
      this.s3 = s3;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context)
        throws IOException {
      byte[] event = input.readAllBytes();
      String routeKey = JSON.readTree(event).path("routeKey").asText();
      int sqlBefore = sql.statements().size();
      int commitsBefore = sql.commits();
      int s3Before = s3.requests().size();
      // S3 calls are synchronous and each is counted when its request line reaches the
      // forwarder, before S3 answers; the client sends one catalog request at a time.
      delegate.handleRequest(new ByteArrayInputStream(event), output, context);
      calls.add(
          new Call(
              routeKey,
              1,
              List.copyOf(sql.statements().subList(sqlBefore, sql.statements().size())),
              sql.commits() - commitsBefore,
              List.copyOf(s3.requests().subList(s3Before, s3.requests().size()))));
    }

    void clear() {
      calls.clear();
    }

    /** Every call since {@link #clear()}, added up. */
    Call total() {
      synchronized (calls) {
        return Call.total(List.copyOf(calls));
      }
    }

    /** The one call made to a route since {@link #clear()}. */
    /** The last request of {@code route} since {@link #clear}. */
    Call last(Route route) {
      synchronized (calls) {
        List<Call> matching =
            calls.stream().filter(c -> c.routeKey().equals(route.routeKey())).toList();
        assertThat(matching).as("calls to %s among %s", route, calls).isNotEmpty();
        return matching.getLast();
      }
    }

    /** Every request of {@code route} since {@link #clear}. */
    List<Call> all(Route route) {
      synchronized (calls) {
        return calls.stream().filter(c -> c.routeKey().equals(route.routeKey())).toList();
      }
    }

    Call only(Route route) {
      List<Call> matching;
      synchronized (calls) {
        matching = calls.stream().filter(c -> c.routeKey().equals(route.routeKey())).toList();
      }
      assertThat(matching).as("calls to %s among %s", route, calls).hasSize(1);
      return matching.getFirst();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // SQL statements, counted on real pgjdbc connections

  /** Counts statements executed on the connections of a {@link Database}. */
  static final class SqlCounter {
    private final List<String> statements = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger commits = new AtomicInteger();

    List<String> statements() {
      return statements;
    }

    int commits() {
      return commits.get();
    }

    /** {@code factory}, its connections counted and every trait of it kept. */
    Database.ConnectionFactory wrap(Database.ConnectionFactory factory) {
      return new ForwardingConnectionFactory(factory) {
        @Override
        public Connection open() throws SQLException {
          return connection(super.open());
        }
      };
    }

    private Connection connection(Connection connection) {
      return proxy(
          Connection.class,
          connection,
          (method, args) -> {},
          (method, args, result) -> {
            switch (method.getName()) {
              case "prepareStatement" ->
                  result = statement(PreparedStatement.class, result, (String) args[0]);
              case "prepareCall" ->
                  result = statement(CallableStatement.class, result, (String) args[0]);
              case "createStatement" -> result = statement(Statement.class, result, null);
              case "commit" -> commits.incrementAndGet();
              default -> {}
            }
            return result;
          });
    }

    @SuppressWarnings("unchecked")
    private <T extends Statement> T statement(Class<T> type, Object statement, String sql) {
      return proxy(
          type,
          (T) statement,
          (method, args) -> {
            // counted before it runs: a statement that fails was still sent
            if (method.getName().startsWith("execute")) {
              String text =
                  args != null && args.length > 0 && args[0] instanceof String s ? s : sql;
              statements.add(text.replaceAll("\\s+", " ").strip());
            }
          },
          (method, args, result) -> result);
    }

    /** What to do before a delegated call. */
    @FunctionalInterface
    private interface Before {
      void accept(Method method, Object[] args);
    }

    /** What to do after a delegated call; returns what the caller gets. */
    @FunctionalInterface
    private interface After {
      Object apply(Method method, Object[] args, Object result) throws Exception;
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, T target, Before before, After after) {
      InvocationHandler handler =
          (proxy, method, args) -> {
            before.accept(method, args);
            Object result;
            try {
              result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            }
            return after.apply(method, args, result);
          };
      return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // S3 requests, counted on the wire in front of the real S3 server

  enum S3Kind {
    GET,
    HEAD,
    PUT,
    DELETE,
    LIST,
    POST,
    OTHER
  }

  record S3Request(S3Kind kind, String method, String target) {
    /** Classifies a path-style S3 request: a GET without a key is a listing. */
    static S3Request of(String method, String target) {
      int query = target.indexOf('?');
      String path = query < 0 ? target : target.substring(0, query);
      String params = query < 0 ? "" : target.substring(query + 1);
      String withoutSlash = path.startsWith("/") ? path.substring(1) : path;
      int slash = withoutSlash.indexOf('/');
      boolean hasKey = slash >= 0 && slash < withoutSlash.length() - 1;
      S3Kind kind =
          switch (method) {
            case "GET" -> hasKey ? S3Kind.GET : S3Kind.LIST;
            case "HEAD" -> S3Kind.HEAD;
            case "PUT" -> S3Kind.PUT;
            case "DELETE" -> S3Kind.DELETE;
            case "POST" -> // DeleteObjects is a POST with ?delete
                List.of(params.split("&")).stream()
                        .anyMatch(p -> p.equals("delete") || p.startsWith("delete="))
                    ? S3Kind.DELETE
                    : S3Kind.POST;
            default -> S3Kind.OTHER;
          };
      return new S3Request(kind, method, target);
    }

    @Override
    public String toString() {
      return kind + " (" + method + " " + target + ")";
    }
  }

  /**
   * A TCP forwarder on loopback in front of an S3 server. It relays bytes unchanged in both
   * directions and, on the way in, parses HTTP/1.1 request framing (headers, then a {@code
   * Content-Length} or chunked body) to record every request's method and target.
   */
  static final class S3Counter implements AutoCloseable {
    private final ServerSocket listener;
    private final URI upstream;
    private final List<S3Request> requests = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> requestNanos = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger awsChunkedUploads = new AtomicInteger();
    private volatile Duration getLatency = Duration.ZERO;
    private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService threads =
        Executors.newCachedThreadPool(
            runnable -> {
              Thread thread = new Thread(runnable, "s3-counter");
              thread.setDaemon(true);
              return thread;
            });

    private S3Counter(ServerSocket listener, URI upstream) {
      this.listener = listener;
      this.upstream = upstream;
    }

    static S3Counter start(URI upstream) throws IOException {
      ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      S3Counter counter = new S3Counter(listener, upstream);
      counter.threads.execute(counter::accept);
      return counter;
    }

    String endpoint() {
      return "http://127.0.0.1:" + listener.getLocalPort();
    }

    /** A storage client whose S3 requests go through this counter. */
    Storage storage() {
      return Storage.s3Compatible(
          endpoint(), LocalS3.REGION, LocalS3.ACCESS_KEY_ID, LocalS3.SECRET_ACCESS_KEY);
    }

    List<S3Request> requests() {
      return requests;
    }

    /** When each request of {@link #requests} arrived ({@link System#nanoTime}), in its order. */
    List<Long> requestNanos() {
      return requestNanos;
    }

    /**
     * The uploads sent aws-chunked ({@code x-amz-content-sha256: STREAMING-…}), their body in
     * signed or checksummed chunks rather than whole.
     */
    int awsChunkedUploads() {
      return awsChunkedUploads.get();
    }

    /** Holds each object GET that long before relaying it, as S3's own latency would. */
    void getLatency(Duration latency) {
      this.getLatency = latency;
    }

    private void accept() {
      while (!listener.isClosed()) {
        try {
          Socket client = listener.accept();
          Socket server = new Socket(upstream.getHost(), upstream.getPort());
          sockets.add(client);
          sockets.add(server);
          threads.execute(() -> relayRequests(client, server));
          threads.execute(() -> relayBytes(server, client));
        } catch (IOException e) {
          if (!listener.isClosed()) {
            throw new IllegalStateException("S3 counter failed to accept", e);
          }
        }
      }
    }

    /** Client to server: request by request, recording each one. */
    private void relayRequests(Socket client, Socket server) {
      try (client;
          server) {
        InputStream in = new BufferedInputStream(client.getInputStream());
        OutputStream out = server.getOutputStream();
        while (true) {
          byte[] head = readHead(in);
          if (head == null) {
            return; // the client closed the connection between requests
          }
          String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
          String[] requestLine = lines[0].split(" ");
          long contentLength = 0;
          boolean chunked = false;
          for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon < 0) {
              continue;
            }
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim();
            if (name.equals("content-length")) {
              contentLength = Long.parseLong(value);
            } else if (name.equals("transfer-encoding")) {
              chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
            } else if (name.equals("x-amz-content-sha256") && value.startsWith("STREAMING-")) {
              awsChunkedUploads.incrementAndGet();
            }
          }
          S3Request request = S3Request.of(requestLine[0], requestLine[1]);
          synchronized (requests) {
            requests.add(request);
            requestNanos.add(System.nanoTime());
          }
          if (request.kind() == S3Kind.GET && !getLatency.isZero()) {
            try {
              Thread.sleep(getLatency); // the stand-in's latency, not a synchronisation
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
          }
          out.write(head);
          out.flush(); // the server may answer "100 Continue" before the body is sent
          if (chunked) {
            relayChunked(in, out);
          } else {
            copy(in, out, contentLength);
          }
          out.flush();
        }
      } catch (IOException e) {
        // a connection closed: nothing more to relay
      }
    }

    /** Server to client: bytes as they come. */
    private static void relayBytes(Socket server, Socket client) {
      try (server;
          client) {
        server.getInputStream().transferTo(client.getOutputStream());
      } catch (IOException e) {
        // a connection closed: nothing more to relay
      }
    }

    /** The request line and headers up to and including the blank line; null at end of stream. */
    private static byte[] readHead(InputStream in) throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int matched = 0;
      byte[] end = {'\r', '\n', '\r', '\n'};
      while (matched < end.length) {
        int b = in.read();
        if (b < 0) {
          if (head.size() == 0) {
            return null;
          }
          throw new EOFException("Connection closed inside request headers");
        }
        head.write(b);
        matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
      }
      return head.toByteArray();
    }

    private static void relayChunked(InputStream in, OutputStream out) throws IOException {
      while (true) {
        String sizeLine = readLine(in, out);
        int semicolon = sizeLine.indexOf(';');
        String hex = semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon);
        long size = Long.parseLong(hex.trim(), 16);
        if (size == 0) {
          // trailers, then the blank line that ends the body
          while (!readLine(in, out).isEmpty()) {}
          return;
        }
        copy(in, out, size);
        readLine(in, out); // the CRLF after the chunk's data
      }
    }

    /** Reads one CRLF-terminated line, relaying it; returns it without the CRLF. */
    private static String readLine(InputStream in, OutputStream out) throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      int previous = -1;
      while (true) {
        int b = in.read();
        if (b < 0) {
          throw new EOFException("Connection closed inside a chunked body");
        }
        out.write(b);
        if (previous == '\r' && b == '\n') {
          byte[] bytes = line.toByteArray();
          return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
        }
        line.write(b);
        previous = b;
      }
    }

    private static void copy(InputStream in, OutputStream out, long length) throws IOException {
      byte[] buffer = new byte[64 * 1024];
      long remaining = length;
      while (remaining > 0) {
        int read = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
        if (read < 0) {
          throw new EOFException("Connection closed inside a request body");
        }
        out.write(buffer, 0, read);
        remaining -= read;
      }
    }

    @Override
    public void close() {
      try {
        listener.close();
      } catch (IOException ignored) {
        // closing anyway
      }
      synchronized (sockets) {
        for (Socket socket : sockets) {
          try {
            socket.close();
          } catch (IOException ignored) {
            // closing anyway
          }
        }
      }
      threads.shutdownNow();
    }
  }
}
