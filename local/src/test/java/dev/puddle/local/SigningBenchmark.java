package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.MetastoreKeySet;
import dev.puddle.core.auth.TokenIssuer;
import dev.puddle.core.auth.TrustedIssuer;
import dev.puddle.core.metastore.SigningKeys;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.rest.RestJson;
import dev.puddle.functions.CatalogHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.requests.ImmutableRemoteSignRequest;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The signing function's server time: {@code signRequest} events for reads and writes of a table's
 * files, each handled by the real {@link CatalogHandler} as Lambda would hand it the event (event
 * parsed, bearer JWT verified against the twin's issuer, the caller's access and the table's row
 * read from PostgreSQL, the request checked and signed, the response written), timed from the
 * event's bytes to the response's. Prints p50 and p99 of reads and of writes after a warm-up.
 *
 * <p>A benchmark, not a test: excluded from {@code ./mvnw verify}. Run it with
 *
 * <pre>
 * ./mvnw -B -pl local -am test -Dtest=SigningBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dgroups=benchmark -Dpuddle.excludedGroups=
 * </pre>
 */
@Tag("benchmark")
class SigningBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int WARM_UP = 2_000;
  private static final int MEASURED = 10_000;

  @Test
  void signingServerTime() throws Exception {
    LocalTwin twin = TestTwin.get();
    String warehouse = TestTwin.newWarehouse("bench-sign");
    TableIdentifier identifier = TableIdentifier.of(Namespace.of("bench"), "orders");
    Table table;
    try (RESTCatalog catalog = TestTwin.restCatalog(warehouse, Map.of())) {
      catalog.createNamespace(identifier.namespace());
      table =
          catalog.createTable(
              identifier, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
    }
    TokenIssuer.Settings issuer =
        new TokenIssuer.Settings(
            TokenIssuer.Settings.DEFAULT_ISSUER,
            TokenIssuer.Settings.DEFAULT_AUDIENCE,
            TokenIssuer.Settings.DEFAULT_LIFETIME);
    CatalogHandler handler =
        new CatalogHandler(
            CatalogApi.builder(
                    new CatalogApi.Settings(LocalTwin.REALM, warehouse),
                    twin.database(),
                    twin.storage())
                .authenticator(
                    new JwtAuthenticator(
                        List.of(
                            new TrustedIssuer(
                                issuer.verification(),
                                new MetastoreKeySet(new SigningKeys(twin.database())))),
                        JwtAuthenticator.DEFAULT_CLOCK_SKEW,
                        Clock.systemUTC()))
                .requestSigner(twin.requestSigner())
                .build());
    String token = TestTwin.rootToken();
    String object =
        twin.s3Endpoint() + "/" + table.location().substring("s3://".length()) + "/data/";

    for (String method : List.of("GET", "PUT")) {
      byte[][] events = new byte[WARM_UP + MEASURED][];
      for (int i = 0; i < events.length; i++) {
        events[i] = event(warehouse, token, method, object + "part-" + i + ".parquet");
      }
      long[] nanos = new long[MEASURED];
      for (int i = 0; i < events.length; i++) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
        long start = System.nanoTime();
        handler.handleRequest(new ByteArrayInputStream(events[i]), out, null);
        long took = System.nanoTime() - start;
        if (i >= WARM_UP) {
          nanos[i - WARM_UP] = took;
        }
        // outside the timed part: every request was signed
        assertThat(JSON.readTree(out.toByteArray()).get("statusCode").asInt())
            .as(out.toString())
            .isEqualTo(200);
      }
      Arrays.sort(nanos);
      System.out.printf(
          "signRequest %s: %d signed, server time p50 %.2f ms, p99 %.2f ms%n",
          method, MEASURED, nanos[MEASURED / 2] / 1e6, nanos[MEASURED * 99 / 100] / 1e6);
    }
  }

  /** A {@code signRequest} event as API Gateway hands it to the sign function. */
  private static byte[] event(String warehouse, String token, String method, String uri)
      throws Exception {
    ObjectNode event =
        (ObjectNode) JSON.readTree(Files.readString(Path.of("../events/signRequest.json")));
    String path = "/v1/" + warehouse + "/namespaces/bench/tables/orders/sign";
    event.put("rawPath", path);
    ((ObjectNode) event.get("requestContext").get("http")).put("path", path);
    ((ObjectNode) event.get("pathParameters"))
        .put("prefix", warehouse)
        .put("namespace", "bench")
        .put("table", "orders");
    ((ObjectNode) event.get("headers")).put("authorization", "Bearer " + token);
    event.put(
        "body",
        RestJson.write(
            ImmutableRemoteSignRequest.builder()
                .region("us-east-1")
                .method(method)
                .uri(URI.create(uri))
                .headers(
                    Map.of(
                        "amz-sdk-invocation-id", List.of("bench"),
                        "User-Agent", List.of("aws-sdk-java/2.42.0 Apache Iceberg 1.11.0")))
                .properties(Map.of())
                .provider("s3")
                .build()));
    ((ObjectNode) event.get("headers")).remove("content-length");
    return JSON.writeValueAsBytes(event);
  }
}
