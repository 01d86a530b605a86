package dev.puddle.local;

import static dev.puddle.local.TextFiles.read;
import static dev.puddle.local.TextFiles.write;
import static dev.puddle.local.TextFiles.writeDataFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.Route;
import dev.puddle.core.access.AccessLevel;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.api.TestClock;
import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.aws.StsCredentialVendor;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.rest.RestJson;
import dev.puddle.core.storage.Storage;
import dev.puddle.core.vending.CredentialCache;
import dev.puddle.core.vending.CredentialScope;
import dev.puddle.core.vending.SessionPolicy;
import dev.puddle.core.vending.StsTestEndpoint;
import dev.puddle.functions.CatalogHandler;
import dev.puddle.functions.HttpApiEvent;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.aws.s3.VendedCredentialsProvider;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.StorageCredential;
import org.apache.iceberg.io.SupportsStorageCredentials;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.ImmutableRegisterTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Credential vending through Iceberg's real REST client: engines that send {@code
 * X-Iceberg-Access-Delegation: vended-credentials} get credentials scoped to their table (from the
 * twin's S3 server, or from STS on a loopback endpoint), callers without data access get 403 and
 * nothing changes, and an engine with no S3 keys of its own works with the vended ones alone.
 */
class CredentialVendingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Namespace NS = Namespace.of("sales");
  private static final TableIdentifier ORDERS = TableIdentifier.of(NS, "orders");
  private static final String ROLE = "arn:aws:iam::123456789012:role/puddle-vending";
  private static final String DELEGATION = "header.X-Iceberg-Access-Delegation";

  /** No keys of the engine's own: only vended credentials can reach the twin's S3 server. */
  private static final Map<String, String> WITHOUT_KEYS =
      Map.of("s3.access-key-id", "nobody", "s3.secret-access-key", "nothing");

  @RegisterExtension final Closing closing = new Closing();

  @Test
  void anEngineWithOnlyVendedCredentialsWritesAndReadsItsTable() throws IOException {
    String warehouse = TestTwin.newWarehouse("vended");
    RESTCatalog engine = vendedClient(warehouse);
    engine.createNamespace(NS);
    Table created = engine.createTable(ORDERS, SCHEMA);

    DataFile file = writeDataFile(created, "rows-1", "1,2,3");
    created.newAppend().appendFile(file).commit();

    // another engine, also with vended credentials only, reads what the first wrote
    Table loaded = vendedClient(warehouse).loadTable(ORDERS);
    assertThat(TextFiles.planned(loaded)).containsExactly(Map.entry(file.location(), "1,2,3"));
    StorageCredential credential = onlyCredential(loaded.io());
    assertThat(credential.prefix()).isEqualTo(loaded.location());
    assertThat(credential.config())
        .containsEntry("s3.endpoint", TestTwin.get().s3Endpoint())
        .containsEntry("s3.path-style-access", "true")
        .containsEntry("client.region", "us-east-1")
        .containsEntry(
            "client.refresh-credentials-endpoint",
            "v1/" + warehouse + "/namespaces/sales/tables/orders/credentials")
        .containsKeys("s3.session-token", "s3.session-token-expires-at-ms");
    assertThat(credential.config().get("s3.access-key-id")).startsWith("PUDDLELOCAL");
  }

  @Test
  void vendedCredentialsReachTheirTableOnly() throws IOException {
    String warehouse = TestTwin.newWarehouse("vended");
    RESTCatalog engine = vendedClient(warehouse);
    engine.createNamespace(NS);
    Table orders = engine.createTable(ORDERS, SCHEMA);
    Table refunds = engine.createTable(TableIdentifier.of(NS, "refunds"), SCHEMA);

    // the orders table's credentials, used where the refunds table lives
    assertThatThrownBy(() -> write(orders.io(), refunds.location() + "/data/stolen.csv", "nope"))
        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
    // while the refunds table's own credentials reach it
    String refundsMetadata =
        ((HasTableOperations) refunds).operations().current().metadataFileLocation();
    assertThat(read(refunds.io(), refundsMetadata)).contains("\"format-version\"");
    // and without delegation, the engine's own (wrong) keys get nowhere
    RESTCatalog withoutDelegation = client(TestTwin.get().uri(), warehouse, WITHOUT_KEYS);
    Table plain = withoutDelegation.loadTable(ORDERS);
    assertThatThrownBy(() -> write(plain.io(), plain.location() + "/data/x.csv", "nope"))
        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
  }

  @Test
  void theCredentialsEndpointHandsOutFreshCredentialsToIcebergsRefresher() {
    String warehouse = TestTwin.newWarehouse("vended");
    RESTCatalog engine = vendedClient(warehouse);
    engine.createNamespace(NS);
    Table table = engine.createTable(ORDERS, SCHEMA);
    String endpoint =
        onlyCredential(table.io()).config().get("client.refresh-credentials-endpoint");

    // what S3FileIO does when its credentials are about to expire
    try (VendedCredentialsProvider refresher =
        VendedCredentialsProvider.create(
            Map.of(
                CatalogProperties.URI, TestTwin.get().uri(),
                OAuth2Properties.TOKEN, TestTwin.rootToken(),
                VendedCredentialsProvider.URI, endpoint))) {
      AwsCredentials refreshed = refresher.resolveCredentials();

      assertThat(refreshed).isInstanceOf(AwsSessionCredentials.class);
      assertThat(refreshed.accessKeyId()).startsWith("PUDDLELOCAL");
      assertThat(((AwsSessionCredentials) refreshed).expirationTime())
          .hasValueSatisfying(
              expiry -> assertThat(expiry).isAfter(Instant.now().plus(Duration.ofMinutes(50))));
    }
  }

  @Test
  void stsSessionsAreScopedToTheCallersAccess() throws Exception {
    StsTestEndpoint sts = sts();
    String warehouse = TestTwin.newWarehouse("sts");
    Grantee caller =
        Grantee.in(
            warehouse,
            Privilege.NAMESPACE_CREATE,
            Privilege.TABLE_CREATE,
            Privilege.TABLE_WRITE_PROPERTIES,
            Privilege.TABLE_WRITE_DATA);
    String uri = stsCatalog(sts, caller);
    RESTCatalog engine = client(uri, warehouse, Map.of(DELEGATION, "vended-credentials"));
    engine.createNamespace(NS);
    // a write path apart from the table's location: within the warehouse, as every one must be
    String dataPath = "s3://" + LocalTwin.BUCKET + "/" + warehouse + "/bulk/orders";

    Table created =
        engine.buildTable(ORDERS, SCHEMA).withProperty("write.data.path", dataPath).create();

    assertThat(sts.calls()).hasSize(1);
    StsTestEndpoint.AssumeRole writer = sts.calls().get(0);
    assertThat(writer.roleArn()).isEqualTo(ROLE);
    assertThat(writer.sessionName()).startsWith("puddle@default@grantee-");
    assertThat(writer.durationSeconds()).isEqualTo(3600);
    Map<String, String> properties = Map.of("write.data.path", dataPath);
    assertThat(JSON.readTree(writer.policy()))
        .isEqualTo(
            JSON.readTree(
                SessionPolicy.json(
                    CredentialScope.forTable(AccessLevel.WRITE, created.location(), properties),
                    "aws")));
    assertThat(onlyCredential(created.io()).config())
        .containsEntry("s3.access-key-id", "ASIAPUDDLETEST1")
        .containsEntry("s3.secret-access-key", "secret-1")
        .containsEntry("s3.session-token", "token-1")
        .containsEntry("client.region", "us-east-1");

    caller.revoke(Privilege.TABLE_WRITE_DATA);
    caller.grant(Privilege.TABLE_READ_DATA);
    Table loaded = engine.loadTable(ORDERS);

    assertThat(sts.calls()).hasSize(2);
    assertThat(JSON.readTree(sts.calls().get(1).policy()))
        .isEqualTo(
            JSON.readTree(
                SessionPolicy.json(
                    CredentialScope.forTable(AccessLevel.READ, loaded.location(), properties),
                    "aws")));
    assertThat(onlyCredential(loaded.io()).config())
        .containsEntry("s3.access-key-id", "ASIAPUDDLETEST2");

    // a commit that returns the table carries the same (cached) read session
    engine.loadTable(ORDERS).updateProperties().set("owner", "sales").commit();
    assertThat(sts.calls()).hasSize(2);
  }

  @Test
  void aCallerWithoutDataAccessGetsNoCredentialsAndChangesNothing() {
    StsTestEndpoint sts = sts();
    String warehouse = TestTwin.newWarehouse("sts");
    Grantee caller =
        Grantee.in(
            warehouse,
            Privilege.NAMESPACE_CREATE,
            Privilege.TABLE_CREATE,
            Privilege.TABLE_LIST,
            Privilege.TABLE_READ_PROPERTIES,
            Privilege.TABLE_WRITE_DATA);
    String uri = stsCatalog(sts, caller);
    RESTCatalog engine = client(uri, warehouse, Map.of(DELEGATION, "vended-credentials"));
    RESTCatalog metadataOnly = client(uri, warehouse, Map.of());
    engine.createNamespace(NS);
    engine.createTable(ORDERS, SCHEMA);
    caller.revoke(Privilege.TABLE_WRITE_DATA);

    assertThatThrownBy(() -> engine.loadTable(ORDERS))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("not allowed to access the data of table sales.orders");
    TableIdentifier refunds = TableIdentifier.of(NS, "refunds");
    assertThatThrownBy(() -> engine.createTable(refunds, SCHEMA))
        .isInstanceOf(ForbiddenException.class);
    assertThat(metadataOnly.tableExists(refunds)).isFalse();
    try (VendedCredentialsProvider refresher =
        VendedCredentialsProvider.create(
            Map.of(
                CatalogProperties.URI,
                uri,
                VendedCredentialsProvider.URI,
                "v1/" + warehouse + "/namespaces/sales/tables/orders/credentials"))) {
      assertThatThrownBy(refresher::resolveCredentials).isInstanceOf(ForbiddenException.class);
    }
    assertThat(sts.calls()).hasSize(1);

    // without asking for credentials, the metadata still loads
    assertThat(metadataOnly.loadTable(ORDERS).io()).isNotNull();
  }

  @Test
  void everyResponseThatReturnsATableCarriesCredentials() {
    String warehouse = TestTwin.newWarehouse("vended");
    CatalogHandler handler = twinHandler(warehouse);
    Map<String, String> table = Map.of("prefix", warehouse, "namespace", "sales");
    Map<String, String> delegation = Map.of("x-iceberg-access-delegation", "vended-credentials");

    Invocations.Answer created =
        expectCredentials(
            invoke(
                handler,
                Route.CREATE_TABLE,
                table,
                RestJson.write(
                    CreateTableRequest.builder().withName("orders").withSchema(SCHEMA).build()),
                delegation));
    expectCredentials(
        invoke(
            handler,
            Route.CREATE_TABLE,
            table,
            RestJson.write(
                CreateTableRequest.builder()
                    .withName("staged")
                    .withSchema(SCHEMA)
                    .stageCreate()
                    .build()),
            delegation));
    Map<String, String> orders = new HashMap<>(table);
    orders.put("table", "orders");
    Invocations.Answer updated =
        expectCredentials(
            invoke(
                handler,
                Route.UPDATE_TABLE,
                orders,
                RestJson.write(
                    new UpdateTableRequest(
                        List.of(),
                        List.of(new MetadataUpdate.SetProperties(Map.of("owner", "sales"))))),
                delegation));
    expectCredentials(invoke(handler, Route.LOAD_TABLE, orders, null, delegation));
    expectCredentials(
        invoke(
            handler,
            Route.REGISTER_TABLE,
            table,
            RestJson.write(
                ImmutableRegisterTableRequest.builder()
                    .name("orders_again")
                    .metadataLocation(updated.json().get("metadata-location").asText())
                    .build()),
            delegation));

    // asking for nothing gets nothing
    Invocations.Answer plain = invoke(handler, Route.LOAD_TABLE, orders, null, Map.of());
    assertThat(plain.json().has("storage-credentials")).isFalse();
    assertThat(plain.json().at("/metadata/table-uuid"))
        .isEqualTo(created.json().at("/metadata/table-uuid"));
  }

  @Test
  void aReplayedCreateGetsFreshCredentialsAndNoneAreStored() throws Exception {
    String warehouse = TestTwin.newWarehouse("vended");
    CatalogHandler handler = twinHandler(warehouse);
    String key = UUID.randomUUID().toString();
    Map<String, String> headers =
        Map.of("idempotency-key", key, "x-iceberg-access-delegation", "vended-credentials");
    HttpApiEvent create =
        Invocations.event(
            Route.CREATE_TABLE,
            Map.of("prefix", warehouse, "namespace", "sales"),
            RestJson.write(
                CreateTableRequest.builder().withName("orders").withSchema(SCHEMA).build()),
            headers);

    Invocations.Answer first = Invocations.invoke(handler, create, null);
    Invocations.Answer replayed = Invocations.invoke(handler, create, null);

    assertThat(first.status()).isEqualTo(200);
    assertThat(replayed.status()).isEqualTo(200);
    assertThat(replayed.json().at("/metadata/table-uuid"))
        .isEqualTo(first.json().at("/metadata/table-uuid"));
    assertThat(replayed.json().at("/storage-credentials/0/config/s3.session-token").asText())
        .isNotBlank();
    assertThat(replayed.json().at("/config/s3.access-key-id").asText()).startsWith("PUDDLELOCAL");
    byte[] stored =
        TestTwin.get()
            .database()
            .read(
                connection -> {
                  try (PreparedStatement statement =
                      connection.prepareStatement(
                          "SELECT body FROM idempotency_key WHERE key = ?::uuid")) {
                    statement.setString(1, key);
                    try (ResultSet rows = statement.executeQuery()) {
                      assertThat(rows.next()).isTrue();
                      return rows.getBytes(1);
                    }
                  }
                });
    String body =
        new String(
            new GZIPInputStream(new ByteArrayInputStream(stored)).readAllBytes(),
            StandardCharsets.UTF_8);
    assertThat(body).contains("\"table-uuid\"").doesNotContain("s3.session-token");
  }

  @Test
  void configTellsEnginesWithoutKeysToAskForCredentials() {
    StsTestEndpoint sts = sts();
    String warehouse = TestTwin.newWarehouse("config");
    Storage aws = Storage.aws("us-east-1");
    closing.add(aws);

    StsCredentialVendor withRole =
        new StsCredentialVendor(sts::client, ROLE, Duration.ofHours(1), "us-east-1");
    StsCredentialVendor withoutRole =
        new StsCredentialVendor(sts::client, null, Duration.ofHours(1), "us-east-1");
    RESTCatalog onAws = client(serve(vendingCatalog(aws, withRole)), warehouse, Map.of());
    RESTCatalog onAwsWithoutRole =
        client(serve(vendingCatalog(aws, withoutRole)), warehouse, Map.of());

    assertThat(onAws.properties()).containsEntry(DELEGATION, "vended-credentials");
    assertThat(onAwsWithoutRole.properties()).doesNotContainKey(DELEGATION);
    // and the client sends it: its loads get credentials
    RESTCatalog twin = client(TestTwin.get().uri(), warehouse, Map.of());
    twin.createNamespace(NS);
    twin.createTable(ORDERS, SCHEMA);
    onAws.loadTable(ORDERS);
    assertThat(sts.calls()).hasSize(1);
    // the twin hands out its own keys: engines need not ask
    assertThat(client(TestTwin.get().uri(), warehouse, Map.of()).properties())
        .doesNotContainKey(DELEGATION);
  }

  /** The twin's catalog with its vendor, serving {@code warehouse} with a namespace "sales". */
  private static CatalogHandler twinHandler(String warehouse) {
    CatalogHandler handler =
        new CatalogHandler(
            TestTwin.rootApi(warehouse)
                .credentialVendor(TestTwin.get().credentialVendor())
                .build());
    invoke(
        handler,
        Route.CREATE_NAMESPACE,
        Map.of("prefix", warehouse),
        "{\"namespace\":[\"sales\"]}",
        Map.of());
    return handler;
  }

  /** One invocation of the handler, as API Gateway would make it for the route. */
  private static Invocations.Answer invoke(
      CatalogHandler handler,
      Route route,
      Map<String, String> parameters,
      String body,
      Map<String, String> headers) {
    return Invocations.invoke(handler, Invocations.event(route, parameters, body, headers), null);
  }

  private StsTestEndpoint sts() {
    StsTestEndpoint sts = StsTestEndpoint.start(new TestClock(Instant.now()));
    closing.add(sts);
    return sts;
  }

  /** A table response with one credential for the table's location, mirrored in its config. */
  private static Invocations.Answer expectCredentials(Invocations.Answer answer) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    JsonNode body = answer.json();
    assertThat(body.get("storage-credentials")).hasSize(1);
    JsonNode credential = body.at("/storage-credentials/0");
    assertThat(credential.get("prefix").asText()).isEqualTo(body.at("/metadata/location").asText());
    for (String key :
        List.of(
            "s3.access-key-id",
            "s3.secret-access-key",
            "s3.session-token",
            "s3.session-token-expires-at-ms",
            "client.region",
            "client.refresh-credentials-endpoint")) {
      assertThat(credential.at("/config/" + key).asText()).as(key).isNotBlank();
      assertThat(body.at("/config/" + key)).as(key).isEqualTo(credential.at("/config/" + key));
    }
    return answer;
  }

  private RESTCatalog vendedClient(String warehouse) {
    Map<String, String> properties = new HashMap<>(WITHOUT_KEYS);
    properties.put(DELEGATION, "vended-credentials");
    return client(TestTwin.get().uri(), warehouse, properties);
  }

  private RESTCatalog client(String uri, String warehouse, Map<String, String> extra) {
    // the twin wants root's token; the catalogs the tests serve themselves take anybody
    RESTCatalog catalog =
        uri.equals(TestTwin.get().uri())
            ? TestTwin.restCatalog(warehouse, extra)
            : TestTwin.client(uri, warehouse, extra);
    closing.add(catalog);
    return catalog;
  }

  /**
   * A catalog over the twin's metastore and S3 whose credentials come from STS, serving {@code
   * caller}'s requests.
   */
  private String stsCatalog(StsTestEndpoint sts, Grantee caller) {
    return serve(
        CatalogApi.builder(
                new CatalogApi.Settings(LocalTwin.REALM, LocalTwin.WAREHOUSE),
                TestTwin.get().database(),
                TestTwin.get().storage())
            .authenticator(caller.authenticator())
            .credentialVendor(
                new CredentialCache(
                    new StsCredentialVendor(sts::client, ROLE, Duration.ofHours(1), "us-east-1"),
                    Clock.systemUTC()))
            .build());
  }

  /** A catalog serving root's requests over {@code storage}, vending from {@code vendor}. */
  private static CatalogApi vendingCatalog(Storage storage, StsCredentialVendor vendor) {
    return CatalogApi.builder(
            new CatalogApi.Settings(LocalTwin.REALM, LocalTwin.WAREHOUSE),
            TestTwin.get().database(),
            storage)
        .authenticator(RootCaller.of(LocalTwin.REALM))
        .credentialVendor(vendor)
        .build();
  }

  private String serve(CatalogApi api) {
    TestEndpoint endpoint = TestEndpoint.start(new CatalogHandler(api));
    closing.add(endpoint);
    return endpoint.uri();
  }

  private static StorageCredential onlyCredential(FileIO io) {
    assertThat(io).isInstanceOf(SupportsStorageCredentials.class);
    List<StorageCredential> credentials = ((SupportsStorageCredentials) io).credentials();
    assertThat(credentials).hasSize(1);
    return credentials.get(0);
  }
}
