package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.SignedJWT;
import dev.puddle.contract.Route;
import dev.puddle.core.auth.ClientCredentials.PrincipalRef;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.MetastoreKeySet;
import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.auth.TokenEndpoint;
import dev.puddle.core.auth.TokenIssuer;
import dev.puddle.core.auth.TrustedIssuer;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.SigningKeys;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.functions.CatalogHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.iceberg.catalog.Namespace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Protects the contract between API Gateway and the catalog function: every sample in {@code
 * events/}, shaped exactly as API Gateway delivers an HTTP API event, goes through the real {@link
 * CatalogHandler} over the twin's PostgreSQL and S3, in replay order against a fresh warehouse, and
 * gets the answer engines rely on. It also keeps the samples complete: exactly one per route.
 *
 * <p>The samples address the warehouse {@code default}; each replay readdresses them to its own
 * warehouse. Metadata locations are random per run, so the register samples get theirs from earlier
 * answers.
 */
class EventSamplesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path EVENTS = Path.of(System.getProperty("puddle.events.dir", "../events"));
  private static final String SAMPLE_WAREHOUSE = "default";

  private final Set<String> replayed = new HashSet<>();
  private String warehouse;
  private CatalogHandler handler;

  /** The handler's answer to a sample: status, headers and the JSON body, if any. */
  private record Answer(String operation, int status, Map<String, String> headers, JsonNode body) {
    JsonNode metadata() {
      return body.get("metadata");
    }

    String metadataLocation() {
      return body.get("metadata-location").asText();
    }
  }

  @BeforeEach
  void setUp() throws JOSEException {
    // a week's retention, so that the story's drops can be listed and undone
    warehouse = TestTwin.newWarehouse("events", Map.of("drop.retention", "P7D"));
    Database database = TestTwin.get().database();
    TokenIssuer.Settings tokenSettings =
        new TokenIssuer.Settings("https://puddle.example.com", "puddle", Duration.ofHours(1));
    JWKSet signingKeys =
        new JWKSet(new ECKeyGenerator(Curve.P_256).keyID("events-" + warehouse).generate());
    JwtAuthenticator ownTokens =
        new JwtAuthenticator(
            List.of(
                new TrustedIssuer(
                    tokenSettings.verification(), new MetastoreKeySet(new SigningKeys(database)))),
            JwtAuthenticator.DEFAULT_CLOCK_SKEW,
            Clock.systemUTC());
    handler =
        new CatalogHandler(
            CatalogApi.builder(
                    new CatalogApi.Settings(LocalTwin.REALM, warehouse),
                    database,
                    TestTwin.get().storage())
                .authenticator(RootCaller.of(LocalTwin.REALM))
                .tokens(
                    new TokenEndpoint(
                        new TokenIssuer(
                            tokenSettings,
                            () -> signingKeys,
                            new SigningKeys(database),
                            Clock.systemUTC()),
                        // the sample's client
                        (id, secret) ->
                            id.equals("spark-etl") && secret.equals("sample-secret-not-real")
                                ? Optional.of(new PrincipalRef(LocalTwin.REALM, "spark"))
                                : Optional.empty(),
                        ownTokens))
                .credentialVendor(TestTwin.get().credentialVendor())
                .requestSigner(TestTwin.get().requestSigner())
                .build());
  }

  @Test
  void thereIsExactlyOneSamplePerRoute() throws IOException {
    Map<String, Route> routeBySample = new HashMap<>();
    for (Path file : sampleFiles()) {
      JsonNode event = JSON.readTree(file.toFile());
      String routeKey = event.get("routeKey").asText();
      Route route = Route.forRouteKey(routeKey).orElse(null);
      String name = file.getFileName().toString().replaceFirst("\\.json$", "");

      assertThat(route).as("route of %s (%s)", file, routeKey).isNotNull();
      assertThat(name).as("name of the sample for %s", routeKey).isEqualTo(route.operationId());
      assertThat(event.get("version").asText()).isEqualTo("2.0");
      assertThat(event.at("/requestContext/routeKey").asText()).isEqualTo(routeKey);
      assertThat(event.at("/requestContext/stage").asText()).isEqualTo("$default");
      routeBySample.put(name, route);
    }

    assertThat(routeBySample.values()).containsExactlyInAnyOrder(Route.values());
  }

  @Test
  void everySampleReplayedInOrderGetsItsExpectedAnswer() throws ParseException {
    Answer token = replay("getToken");
    expect(token, 200);
    assertThat(token.body().get("token_type").asText()).isEqualTo("bearer");
    assertThat(token.body().get("scope").asText()).isEqualTo("PRINCIPAL_ROLE:ALL");
    SignedJWT jwt = SignedJWT.parse(token.body().get("access_token").asText());
    assertThat(jwt.getJWTClaimsSet().getSubject()).isEqualTo("spark");

    Answer jwks = replay("getJwks");
    expect(jwks, 200);
    assertThat(jwks.body().get("keys").findValuesAsText("kid"))
        .contains(jwt.getHeader().getKeyID());
    assertThat(jwks.body().get("keys").findValues("d")).as("no private parts").isEmpty();

    Answer health = replay("health");
    expect(health, 200);
    assertThat(health.body().get("status").asText()).isEqualTo("ok");

    Answer ready = replay("ready");
    expect(ready, 200);
    assertThat(ready.body().get("status").asText()).isEqualTo("ready");

    Answer config = replay("getConfig");
    expect(config, 200);
    assertThat(config.body().at("/overrides/prefix").asText()).isEqualTo(warehouse);
    assertThat(config.body().at("/overrides/namespace-separator").asText()).isEqualTo("%1F");
    assertThat(texts(config.body().get("endpoints")))
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(Route.values())
                .filter(Route::isCatalogEndpoint)
                .map(Route::routeKey)
                .toList());

    Answer created = replay("createNamespace");
    expect(created, 200);
    assertThat(texts(created.body().get("namespace"))).containsExactly("sales");
    assertThat(created.body().at("/properties/owner").asText()).isEqualTo("analytics");

    Answer namespaces = replay("listNamespaces");
    expect(namespaces, 200);
    assertThat(namespaces.body().get("namespaces")).hasSize(1);
    assertThat(texts(namespaces.body().get("namespaces").get(0))).containsExactly("sales");

    expectNoContent(replay("namespaceExists"));

    // the sample asks for sales.eu, which does not exist: the raw 0x1F must split two levels
    Answer nested = replay("loadNamespaceMetadata");
    expect(nested, 404);
    assertThat(nested.body().at("/error/type").asText()).isEqualTo("NoSuchNamespaceException");
    assertThat(nested.body().at("/error/message").asText()).endsWith(": sales.eu");

    Answer properties = replay("updateProperties");
    expect(properties, 200);
    assertThat(texts(properties.body().get("updated"))).containsExactly("owner");
    assertThat(texts(properties.body().get("removed"))).containsExactly("comment");

    Answer table = replay("createTable");
    expect(table, 200);
    assertThat(table.metadataLocation())
        .startsWith("s3://" + LocalTwin.BUCKET + "/" + warehouse + "/sales/orders-")
        .endsWith(".metadata.json");
    assertThat(table.headers()).containsKey("ETag");
    assertThat(table.metadata().get("format-version").asInt()).isEqualTo(2);
    assertThat(table.metadata().at("/partition-specs/0/fields/0/transform").asText())
        .isEqualTo("day");
    String tableUuid = table.metadata().get("table-uuid").asText();

    Answer tables = replay("listTables");
    expect(tables, 200);
    assertThat(tables.body().at("/identifiers/0/name").asText()).isEqualTo("orders");
    assertThat(tables.body().get("identifiers")).hasSize(1);

    expectNoContent(replay("tableExists"));

    Answer updated = replay("updateTable");
    expect(updated, 200);
    assertThat(updated.metadata().at("/properties/write.parquet.compression-codec").asText())
        .isEqualTo("zstd");
    assertThat(updated.metadataLocation()).isNotEqualTo(table.metadataLocation());

    expectNoContent(replay("commitTransaction"));

    Answer loaded = replay("loadTable");
    expect(loaded, 200);
    assertThat(loaded.metadata().get("current-schema-id").asInt()).isEqualTo(1);
    assertThat(loaded.metadata().at("/properties/write.parquet.compression-codec").asText())
        .isEqualTo("zstd");
    assertThat(loaded.metadataLocation()).isNotEqualTo(updated.metadataLocation());
    String etag = loaded.headers().get("ETag");
    assertThat(etag).isNotBlank();
    Answer unchanged = send(withHeader(sample("loadTable"), "if-none-match", etag));
    expect(unchanged, 304);
    assertThat(unchanged.body()).isNull();
    assertThat(unchanged.headers()).containsEntry("ETag", etag);

    Answer credentials = replay("loadCredentials");
    expect(credentials, 200);
    assertThat(credentials.body().get("storage-credentials")).hasSize(1);
    assertThat(credentials.body().at("/storage-credentials/0/prefix").asText())
        .isEqualTo(loaded.metadata().get("location").asText());
    assertThat(credentials.body().at("/storage-credentials/0/config/s3.session-token").asText())
        .isNotBlank();

    // the sample signs a read of an AWS bucket: readdressed to the twin's S3 server and the table
    String location = loaded.metadata().get("location").asText();
    String object =
        TestTwin.get().storage().clientProperties().get("s3.endpoint")
            + "/"
            + location.substring("s3://".length())
            + "/metadata/snap-1.avro";
    Answer signed = replay("signRequest", withBody(sample("signRequest"), "region", "us-east-1"));
    expect(signed, 403); // another bucket's object: nothing signed
    assertThat(signed.body().at("/error/message").asText()).contains("not an S3 endpoint");
    Answer signedHere = send(withBody(sample("signRequest"), "uri", object));
    expect(signedHere, 200);
    assertThat(signedHere.body().get("uri").asText()).isEqualTo(object);
    assertThat(signedHere.body().at("/headers/Authorization/0").asText())
        .startsWith("AWS4-HMAC-SHA256 Credential=" + LocalS3.ACCESS_KEY_ID + "/");
    assertThat(signedHere.headers()).containsEntry("Cache-Control", "private");
    // the table has no snapshot yet: its plan is complete, empty and keeps no state; the samples'
    // plan id and plan task are nobody's
    Answer planned = replay("planTableScan");
    expect(planned, 200);
    assertThat(planned.body().get("status").asText()).isEqualTo("completed");
    assertThat(planned.body().get("file-scan-tasks")).isEmpty();
    assertThat(planned.body().has("plan-id")).isFalse();
    Answer unknownPlan = replay("fetchPlanningResult");
    expect(unknownPlan, 404);
    assertThat(unknownPlan.body().at("/error/type").asText()).isEqualTo("NoSuchPlanIdException");
    expect(replay("cancelPlanning"), 404);
    Answer unknownTask = replay("fetchScanTasks");
    expect(unknownTask, 404);
    assertThat(unknownTask.body().at("/error/type").asText()).isEqualTo("NoSuchPlanTaskException");

    expectNoContent(replay("reportMetrics"));
    expectNoContent(replay("renameTable"));
    expectNoContent(replay("dropTable"));

    // the feed, as the sample filters it: the table's commits (one of them in the transaction)
    // and its rename, in commit order, each with its request's id
    Answer feed = replay("queryEvents");
    expect(feed, 200);
    assertThat(feed.body().get("events"))
        .extracting(e -> e.at("/operation/operation-type").asText())
        .containsExactly("update-table", "update-table", "rename-table");
    assertThat(feed.body().at("/events/0/request-id").asText())
        .isEqualTo(sample("updateTable").at("/requestContext/requestId").asText());
    assertThat(feed.body().at("/events/2/operation/table-uuid").asText()).isEqualTo(tableUuid);
    assertThat(feed.body().get("continuation-token").asText()).isNotBlank();

    // the story's drops keep their files: the warehouse has no purge job
    Answer purgeJobs = replay("listPurgeJobs");
    expect(purgeJobs, 200);
    assertThat(purgeJobs.body().get("purge-jobs")).isEmpty();
    // so the sample's job is unknown, to show and to redrive
    Answer purgeJob = replay("getPurgeJob");
    expect(purgeJob, 404);
    assertThat(purgeJob.body().at("/error/message").asText()).contains("Purge job does not exist");
    expect(replay("redrivePurgeJob"), 404);

    // within the warehouse's retention the dropped table waits, and comes back under a new name
    Answer dropped = replay("listDroppedObjects");
    expect(dropped, 200);
    assertThat(dropped.body().get("dropped-objects")).hasSize(1);
    assertThat(dropped.body().at("/dropped-objects/0/identifier/name").asText())
        .isEqualTo("orders_2024");
    assertThat(dropped.body().at("/dropped-objects/0/kind").asText()).isEqualTo("table");
    assertThat(dropped.body().at("/dropped-objects/0/purge-requested").asBoolean()).isFalse();
    String droppedId = dropped.body().at("/dropped-objects/0/id").asText();
    Answer undropped =
        replay("undropObject", withPathParameter(sample("undropObject"), "object", droppedId));
    expect(undropped, 200);
    assertThat(undropped.body().at("/identifier/name").asText()).isEqualTo("orders_restored");
    assertThat(undropped.metadataLocation()).isEqualTo(loaded.metadataLocation());
    expectNoContent(send(withPathParameter(sample("dropTable"), "table", "orders_restored")));

    replayManagementStory();

    // brings the dropped table back from its last metadata file
    Answer registered =
        replay(
            "registerTable",
            withBody(sample("registerTable"), "metadata-location", loaded.metadataLocation()));
    expect(registered, 200);
    assertThat(registered.metadataLocation()).isEqualTo(loaded.metadataLocation());
    assertThat(registered.metadata().get("table-uuid").asText()).isEqualTo(tableUuid);

    // a maintenance run of it, on demand, then the warehouse's runs
    Answer started = replay("startMaintenance");
    expect(started, 202);
    assertThat(started.body().get("identifier").asText()).isEqualTo("sales.orders");
    assertThat(started.body().get("trigger").asText()).isEqualTo("request");
    Answer maintenanceJobs = replay("listMaintenanceJobs");
    expect(maintenanceJobs, 200);
    assertThat(maintenanceJobs.body().get("maintenance-jobs")).hasSize(1);

    Answer view = replay("createView");
    expect(view, 200);
    assertThat(view.metadataLocation())
        .startsWith("s3://" + LocalTwin.BUCKET + "/" + warehouse + "/sales/daily_revenue-");
    assertThat(view.metadata().get("current-version-id").asInt()).isEqualTo(1);
    String viewUuid = view.metadata().get("view-uuid").asText();

    Answer views = replay("listViews");
    expect(views, 200);
    assertThat(views.body().at("/identifiers/0/name").asText()).isEqualTo("daily_revenue");
    assertThat(views.body().get("identifiers")).hasSize(1);

    expectNoContent(replay("viewExists"));

    Answer loadedView = replay("loadView");
    expect(loadedView, 200);
    assertThat(loadedView.metadata().at("/versions/0/representations/0/sql").asText())
        .contains("SUM(amount)");

    Answer replaced = replay("replaceView");
    expect(replaced, 200);
    assertThat(replaced.metadata().get("current-version-id").asInt()).isEqualTo(2);
    assertThat(replaced.metadata().at("/properties/comment").asText())
        .isEqualTo("Revenue per day, refunds excluded");

    expectNoContent(replay("renameView"));
    expectNoContent(replay("dropView"));

    Answer registeredView =
        replay(
            "registerView",
            withBody(sample("registerView"), "metadata-location", replaced.metadataLocation()));
    expect(registeredView, 200);
    assertThat(registeredView.metadataLocation()).isEqualTo(replaced.metadataLocation());
    assertThat(registeredView.metadata().get("view-uuid").asText()).isEqualTo(viewUuid);

    // the two register samples brought back what was dropped: empty the namespace to drop it
    expectNoContent(send(withPathParameter(sample("dropTable"), "table", "orders")));
    expectNoContent(send(withPathParameter(sample("dropView"), "view", "daily_revenue")));
    expectNoContent(replay("dropNamespace"));

    assertThat(replayed)
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(Route.values()).map(Route::operationId).toList());
  }

  /**
   * The management samples, as root: a warehouse created, read, listed and deleted; then a
   * principal for a second engine with a principal role, a catalog role of this warehouse and a
   * grant on {@code sales}, each listed, then everything revoked and deleted again.
   */
  private void replayManagementStory() {
    Answer warehouseCreated = replay("createWarehouse");
    expect(warehouseCreated, 201);
    assertThat(warehouseCreated.body().get("location").asText())
        .isEqualTo("s3://warehouse/analytics");
    Answer warehouseRead = replay("getWarehouse");
    expect(warehouseRead, 200);
    assertThat(warehouseRead.body().get("name").asText()).isEqualTo(warehouse);
    Answer warehouseUpdated = replay("updateWarehouseProperties");
    expect(warehouseUpdated, 200);
    assertThat(texts(warehouseUpdated.body().get("updated"))).containsExactly("drop.retention");
    assertThat(texts(warehouseUpdated.body().get("missing")))
        .containsExactly("drop.purge-immediately");
    Answer warehouseList = replay("listWarehouses");
    expect(warehouseList, 200);
    assertThat(warehouseList.body().findValuesAsText("name")).contains(warehouse, "analytics");
    assertThat(
            warehouseList.body().get("warehouses").findParents("name").stream()
                .filter(w -> w.get("name").asText().equals(warehouse))
                .map(w -> w.at("/properties/drop.retention").asText()))
        .containsExactly("P14D");
    expectNoContent(replay("deleteWarehouse"));

    Answer principal = replay("createPrincipal");
    expect(principal, 201);
    String clientId = principal.body().at("/credentials/clientId").asText();
    String secret = principal.body().at("/credentials/clientSecret").asText();
    assertThat(principal.body().at("/principal/clientId").asText()).isEqualTo(clientId);
    assertThat(principal.headers()).containsEntry("cache-control", "no-store");
    Answer read = replay("getPrincipal");
    expect(read, 200);
    assertThat(read.body().at("/properties/team").asText()).isEqualTo("bi");
    assertThat(read.body().has("clientSecret")).isFalse();
    Answer principals = replay("listPrincipals");
    expect(principals, 200);
    assertThat(principals.body().get("principals").findValuesAsText("name"))
        .contains("root", "trino");
    Answer rotated = replay("rotateCredentials");
    expect(rotated, 200);
    assertThat(rotated.body().at("/credentials/clientId").asText()).isEqualTo(clientId);
    assertThat(rotated.body().at("/credentials/clientSecret").asText()).isNotEqualTo(secret);

    expect(replay("createPrincipalRole"), 201);
    Answer principalRoles = replay("listPrincipalRoles");
    expect(principalRoles, 200);
    assertThat(principalRoles.body().get("roles").findValuesAsText("name"))
        .contains("service_admin", "bi_readers");
    expectNoContent(replay("assignPrincipalRole"));
    expect(replay("createCatalogRole"), 201);
    Answer catalogRoles = replay("listCatalogRoles");
    expect(catalogRoles, 200);
    assertThat(catalogRoles.body().get("roles").findValuesAsText("name"))
        .containsExactly("catalog_admin", "sales_reader");
    expectNoContent(replay("assignCatalogRoleToPrincipalRole"));
    expectNoContent(replay("addGrantToCatalogRole"));
    Answer grants = replay("listGrantsForCatalogRole");
    expect(grants, 200);
    assertThat(grants.body().get("grants")).hasSize(1);
    assertThat(grants.body().at("/grants/0/privilege").asText()).isEqualTo("TABLE_READ_DATA");
    assertThat(texts(grants.body().at("/grants/0/namespace"))).containsExactly("sales");
    expectNoContent(replay("revokeGrantFromCatalogRole"));
    expectNoContent(replay("revokeCatalogRoleFromPrincipalRole"));
    expectNoContent(replay("deleteCatalogRole"));
    expectNoContent(replay("revokePrincipalRole"));
    expectNoContent(replay("deletePrincipalRole"));
    expectNoContent(replay("deletePrincipal"));
  }

  @Test
  void aTwoLevelNamespaceArrivesWithTheRawSeparator() {
    Warehouse target = new Warehouses(TestTwin.get().database()).get(LocalTwin.REALM, warehouse);
    Namespaces namespaces = new Namespaces(TestTwin.get().database());
    namespaces.create(target, Namespace.of("sales"), Map.of(), Change.NONE);
    namespaces.create(
        target, Namespace.of("sales", "eu"), Map.of("region", "eu-west-1"), Change.NONE);

    Answer answer = send(sample("loadNamespaceMetadata"));

    expect(answer, 200);
    assertThat(texts(answer.body().get("namespace"))).containsExactly("sales", "eu");
    assertThat(answer.body().at("/properties/region").asText()).isEqualTo("eu-west-1");
    // a namespace without a location of its own reports where its tables go
    assertThat(answer.body().at("/properties/location").asText())
        .isEqualTo(target.location() + "/sales/eu");
  }

  /**
   * A function keeps its metastore connection between requests. When the database drops it
   * (failover, idle timeout), the next request, readiness included, reconnects and succeeds.
   */
  @Test
  void theReadinessSampleReconnectsAfterTheMetastoreDroppedItsConnection() {
    try (Database database = TestTwin.ownDatabase()) {
      CatalogHandler probe = TestTwin.rootHandler(database, warehouse);
      expect(send(probe, sample("ready")), 200);
      int backend = database.read(connection -> queryInt(connection, "SELECT pg_backend_pid()"));
      TestTwin.get()
          .database()
          .autocommit(
              connection ->
                  queryInt(connection, "SELECT pg_terminate_backend(" + backend + ", 30000)::int"));

      expect(send(probe, sample("ready")), 200);

      int newBackend = database.read(connection -> queryInt(connection, "SELECT pg_backend_pid()"));
      assertThat(newBackend).isNotEqualTo(backend);
    }
  }

  private static int queryInt(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getInt(1);
    }
  }

  private Answer replay(String operationId) {
    return replay(operationId, sample(operationId));
  }

  private Answer replay(String operationId, ObjectNode event) {
    replayed.add(operationId);
    return send(event);
  }

  private Answer send(ObjectNode event) {
    return send(handler, event);
  }

  private static Answer send(CatalogHandler handler, ObjectNode event) {
    try {
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      handler.handleRequest(new ByteArrayInputStream(JSON.writeValueAsBytes(event)), output, null);
      JsonNode response = JSON.readTree(output.toByteArray());
      Map<String, String> headers = new HashMap<>();
      response
          .get("headers")
          .properties()
          .forEach(header -> headers.put(header.getKey(), header.getValue().asText()));
      JsonNode body = response.get("body");
      String text = body == null || body.isNull() ? null : body.asText();
      if (text != null && response.path("isBase64Encoded").asBoolean()) {
        // gzipped for the client that accepts it, as the samples do
        assertThat(headers).containsEntry("content-encoding", "gzip");
        try (InputStream in =
            new GZIPInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
          text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      }
      return new Answer(
          Route.forRouteKey(event.get("routeKey").asText()).orElseThrow().operationId(),
          response.get("statusCode").asInt(),
          headers,
          text == null ? null : JSON.readTree(text));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The sample, readdressed from the warehouse it names to this test's warehouse. */
  private ObjectNode sample(String operationId) {
    ObjectNode event;
    try {
      event = (ObjectNode) JSON.readTree(EVENTS.resolve(operationId + ".json").toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (String parameter : List.of("prefix", "warehouse")) {
      if (event.at("/pathParameters/" + parameter).asText().equals(SAMPLE_WAREHOUSE)) {
        event = withPathParameter(event, parameter, warehouse);
      }
    }
    if (event.at("/queryStringParameters/warehouse").asText().equals(SAMPLE_WAREHOUSE)) {
      ((ObjectNode) event.get("queryStringParameters")).put("warehouse", warehouse);
      event.put("rawQueryString", "warehouse=" + warehouse);
    }
    return event;
  }

  /** Sets a path parameter and the paths API Gateway derives from the route's template. */
  private static ObjectNode withPathParameter(ObjectNode event, String name, String value) {
    ObjectNode parameters = (ObjectNode) event.get("pathParameters");
    parameters.put(name, value);
    String path = event.get("routeKey").asText().split(" ", 2)[1];
    for (Map.Entry<String, JsonNode> parameter : parameters.properties()) {
      path = path.replace("{" + parameter.getKey() + "}", parameter.getValue().asText());
    }
    event.put("rawPath", path);
    ((ObjectNode) event.at("/requestContext/http")).put("path", path);
    return event;
  }

  private static ObjectNode withBody(ObjectNode event, String field, String value) {
    try {
      ObjectNode body = (ObjectNode) JSON.readTree(event.get("body").asText());
      body.put(field, value);
      event.put("body", JSON.writeValueAsString(body));
      return event;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ObjectNode withHeader(ObjectNode event, String name, String value) {
    ((ObjectNode) event.get("headers")).put(name, value);
    return event;
  }

  private static void expect(Answer answer, int status) {
    assertThat(answer.status())
        .as("%s answered %s", answer.operation(), answer.body())
        .isEqualTo(status);
  }

  private static void expectNoContent(Answer answer) {
    expect(answer, 204);
    assertThat(answer.body()).as(answer.operation()).isNull();
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(node -> texts.add(node.asText()));
    return texts;
  }

  private static List<Path> sampleFiles() throws IOException {
    try (Stream<Path> files = Files.list(EVENTS)) {
      return files.filter(file -> file.toString().endsWith(".json")).sorted().toList();
    }
  }
}
