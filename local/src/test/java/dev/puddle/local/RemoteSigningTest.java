package dev.puddle.local;

import static dev.puddle.local.TextFiles.write;
import static dev.puddle.local.TextFiles.writeDataFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.contract.Route;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.rest.RestJson;
import dev.puddle.functions.CatalogHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.requests.ImmutableRemoteSignRequest;
import org.apache.iceberg.rest.responses.RemoteSignResponse;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Remote signing through Iceberg's own client: an engine holding no storage keys (S3FileIO with
 * remote signing, anonymous to S3) writes, lists, reads and deletes its table's files through the
 * twin's S3 server, which checks every SigV4 signature, with requests the catalog signed; and the
 * signer refuses, with 403 and nothing signed, what the table does not reach or the caller may not
 * do, while S3 refuses a signature used for another request than the one signed.
 */
class RemoteSigningTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Namespace NS = Namespace.of("sales");
  private static final TableIdentifier ORDERS = TableIdentifier.of(NS, "orders");
  private static final TableIdentifier REFUNDS = TableIdentifier.of(NS, "refunds");
  private static final Map<String, String> SIGNING =
      Map.of("header.X-Iceberg-Access-Delegation", "remote-signing");
  private static final Set<String> RESTRICTED_HEADERS =
      Set.of("host", "content-length", "connection", "expect", "upgrade");

  @RegisterExtension final Closing closing = new Closing();

  @Test
  void anEngineWithoutStorageKeysWritesAndReadsItsTableThroughSignedRequests() throws Exception {
    String warehouse = TestTwin.newWarehouse("signed");
    RESTCatalog engine = signingClient(warehouse);
    assertThat(engine.properties())
        .as("no storage keys reach the engine")
        .doesNotContainKeys("s3.access-key-id", "s3.secret-access-key");
    engine.createNamespace(NS);
    Table created = engine.createTable(ORDERS, SCHEMA);
    assertThat(created.io()).isInstanceOf(S3FileIO.class);
    assertThat(created.io().properties())
        .containsEntry("s3.remote-signing-enabled", "true")
        .containsEntry(
            "signer.endpoint", "v1/" + warehouse + "/namespaces/sales/tables/orders/sign")
        .doesNotContainKeys("s3.access-key-id", "s3.secret-access-key", "s3.session-token");

    DataFile file = writeDataFile(created, "rows-1", "1,2,3");
    created.newAppend().appendFile(file).commit();

    // another engine without keys reads what the first wrote, and lists, deletes its files
    Table loaded = signingClient(warehouse).loadTable(ORDERS);
    assertThat(TextFiles.planned(loaded)).containsExactly(Map.entry(file.location(), "1,2,3"));
    S3FileIO io = (S3FileIO) loaded.io();
    String scratch = loaded.location() + "/data/scratch-";
    write(io, scratch + "1.csv", "a");
    write(io, scratch + "2.csv", "b");
    write(io, scratch + "3.csv", "c");
    assertThat(listed(io, loaded.location() + "/data/"))
        .contains(file.location(), scratch + "1.csv", scratch + "2.csv", scratch + "3.csv");
    io.deleteFile(scratch + "1.csv"); // DeleteObject
    io.deleteFiles(List.of(scratch + "2.csv", scratch + "3.csv")); // DeleteObjects
    assertThat(listed(io, loaded.location() + "/data/")).containsExactly(file.location());
  }

  @Test
  void theSignerRefusesWhatTheTableDoesNotReachOrTheCallerMayNotDo() {
    String warehouse = TestTwin.newWarehouse("signed");
    RESTCatalog engine = signingClient(warehouse);
    engine.createNamespace(NS);
    Table orders = engine.createTable(ORDERS, SCHEMA);
    Table refunds = engine.createTable(REFUNDS, SCHEMA);
    String object = objectUri(orders.location() + "/data/rows-1.csv");
    Grantee reader = Grantee.in(warehouse, Privilege.TABLE_READ_DATA);
    CatalogApi signer = signingCatalog(warehouse, reader);

    assertThat(sign(signer, "GET", object, null).status()).isEqualTo(200);
    assertThat(sign(signer, "HEAD", object, null).status()).isEqualTo(200);
    assertThat(
            sign(signer, "GET", bucketUri("list-type=2&prefix=" + key(orders) + "/data/"), null)
                .status())
        .isEqualTo(200);

    // a reader may not write
    refused(sign(signer, "PUT", object, null), "requires TABLE_WRITE_DATA");
    refused(sign(signer, "DELETE", object, null), "requires TABLE_WRITE_DATA");
    refused(
        sign(signer, "POST", object + "?uploads", null), "requires TABLE_WRITE_DATA"); // multipart
    // another table's files, another bucket, tricks with the path or the listing
    refused(
        sign(signer, "GET", objectUri(refunds.location() + "/data/rows-1.csv"), null),
        "outside the locations of table sales.orders");
    refused(
        sign(signer, "GET", object.replace("/" + LocalTwin.BUCKET + "/", "/elsewhere/"), null),
        "outside the locations");
    refused(
        sign(signer, "GET", objectUri(orders.location() + "/../" + refundsName(refunds)), null),
        ". or .. segments");
    refused(
        sign(signer, "GET", bucketUri("list-type=2&prefix=" + warehouse + "/"), null),
        "outside the locations");
    refused(sign(signer, "GET", bucketUri("list-type=2"), null), "signed only under a prefix");
    refused(sign(signer, "GET", "https://example.com/" + LocalTwin.BUCKET + "/x", null), "not an");
    refused(sign(signer, "PUT", object + "?acl", null), "is not signed");

    // a writer may write there, but a DeleteObjects body naming another table's file is refused
    Grantee writer = Grantee.in(warehouse, Privilege.TABLE_READ_DATA, Privilege.TABLE_WRITE_DATA);
    CatalogApi writing = signingCatalog(warehouse, writer);
    assertThat(sign(writing, "PUT", object, null).status()).isEqualTo(200);
    String delete =
        "<Delete><Object><Key>%s/data/a.csv</Key></Object><Object><Key>%s/data/b.csv</Key>"
            + "</Object></Delete>";
    assertThat(
            sign(writing, "POST", bucketUri("delete"), delete.formatted(key(orders), key(orders)))
                .status())
        .isEqualTo(200);
    refused(
        sign(writing, "POST", bucketUri("delete"), delete.formatted(key(orders), key(refunds))),
        "outside the locations");

    // bodies that are not requests to sign
    assertThat(sign(writing, "POST", bucketUri("delete"), null).status()).isEqualTo(400);
    assertThat(sign(writing, "POST", bucketUri("delete"), "not xml").status()).isEqualTo(400);
    Response noUri = signRaw(writing, "{\"region\":\"us-east-1\",\"method\":\"GET\"}");
    assertThat(noUri.status()).isEqualTo(400);
    assertThat(noUri.body()).contains("BadRequestException");
    assertThat(signRaw(writing, "[]").status()).isEqualTo(400);
  }

  @Test
  void aSignatureIsGoodForTheRequestSignedOnly() throws Exception {
    String warehouse = TestTwin.newWarehouse("signed");
    RESTCatalog engine = signingClient(warehouse);
    engine.createNamespace(NS);
    Table orders = engine.createTable(ORDERS, SCHEMA);
    write(orders.io(), orders.location() + "/data/a.csv", "secret a");
    write(orders.io(), orders.location() + "/data/b.csv", "secret b");
    CatalogApi signer = signingCatalog(warehouse, Grantee.in(warehouse, Privilege.TABLE_READ_DATA));
    String a = objectUri(orders.location() + "/data/a.csv");
    Map<String, List<String>> signed = signed(sign(signer, "GET", a, null));

    // a Host header of the caller's cannot move the signature to another bucket
    Map<String, List<String>> rehosted =
        signed(
            signRaw(
                signer,
                RestJson.write(
                    ImmutableRemoteSignRequest.builder()
                        .region("us-east-1")
                        .method("GET")
                        .uri(URI.create(a))
                        .headers(Map.of("Host", List.of("elsewhere.s3.amazonaws.com")))
                        .properties(Map.of())
                        .build())));
    assertThat(rehosted.get("Host")).containsExactly(URI.create(a).getAuthority());

    HttpClient http = HttpClient.newHttpClient();
    assertThat(send(http, a, signed).body()).isEqualTo("secret a");
    // the same signature for another object of the same table, or unsigned: S3 refuses
    HttpResponse<String> tampered = send(http, a.replace("/a.csv", "/b.csv"), signed);
    assertThat(tampered.statusCode()).isEqualTo(403);
    assertThat(tampered.body()).doesNotContain("secret b");
    assertThat(send(http, a, Map.of()).statusCode()).isEqualTo(403);
  }

  @Test
  void aCatalogThatSignsNothingRefusesEnginesThatAskOnlyForSigning() {
    String warehouse = TestTwin.newWarehouse("unsigned");
    TestEndpoint unsigned =
        TestEndpoint.start(new CatalogHandler(TestTwin.rootApi(warehouse).build()));
    closing.add(unsigned);

    assertThatThrownBy(() -> TestTwin.client(unsigned.uri(), warehouse, SIGNING))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("This catalog does not sign requests: remote-signing");
    RESTCatalog plain = TestTwin.client(unsigned.uri(), warehouse, Map.of());
    closing.add(plain);
    assertThat(plain.properties()).containsKey("s3.access-key-id");
  }

  private RESTCatalog signingClient(String warehouse) {
    RESTCatalog catalog = TestTwin.restCatalog(warehouse, SIGNING);
    closing.add(catalog);
    return catalog;
  }

  /** A catalog over the twin's metastore and S3 that signs, serving {@code caller}'s requests. */
  private static CatalogApi signingCatalog(String warehouse, Grantee caller) {
    return CatalogApi.builder(
            new CatalogApi.Settings(LocalTwin.REALM, warehouse),
            TestTwin.get().database(),
            TestTwin.get().storage())
        .authenticator(caller.authenticator())
        .requestSigner(TestTwin.get().requestSigner())
        .build();
  }

  private static Response sign(CatalogApi api, String method, String uri, String body) {
    return signRaw(
        api,
        RestJson.write(
            ImmutableRemoteSignRequest.builder()
                .region("us-east-1")
                .method(method)
                .uri(URI.create(uri))
                .headers(Map.of("amz-sdk-invocation-id", List.of("test")))
                .properties(Map.of())
                .body(body)
                .provider("s3")
                .build()));
  }

  private static Response signRaw(CatalogApi api, String body) {
    return api.handle(
        new Request(
            Route.SIGN_REQUEST,
            Map.of(
                "prefix",
                api.settings().defaultWarehouse(),
                "namespace",
                "sales",
                "table",
                "orders"),
            Map.of(),
            Map.of(),
            body));
  }

  private static void refused(Response response, String message) {
    assertThat(response.status()).as(response.body()).isEqualTo(403);
    assertThat(response.body()).contains("ForbiddenException").contains(message);
    assertThat(response.body()).doesNotContain("Authorization");
  }

  private static Map<String, List<String>> signed(Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return RestJson.read(response.body(), RemoteSignResponse.class).headers();
  }

  private static HttpResponse<String> send(
      HttpClient http, String uri, Map<String, List<String>> headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri)).GET();
    headers.forEach(
        (name, values) -> {
          if (!RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
            values.forEach(value -> request.header(name, value));
          }
        });
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String objectUri(String location) {
    return TestTwin.get().s3Endpoint() + "/" + location.substring("s3://".length());
  }

  private static String bucketUri(String query) {
    return TestTwin.get().s3Endpoint() + "/" + LocalTwin.BUCKET + "?" + query;
  }

  private static String key(Table table) {
    return StorageObjects.key(table.location());
  }

  private static String refundsName(Table refunds) {
    return refunds.location().substring(refunds.location().lastIndexOf('/') + 1) + "/data/x";
  }

  private static List<String> listed(S3FileIO io, String prefix) {
    return StreamSupport.stream(io.listPrefix(prefix).spliterator(), false)
        .map(FileInfo::location)
        .toList();
  }
}
