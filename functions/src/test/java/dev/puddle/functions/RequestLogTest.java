package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.FunctionGroup;
import dev.puddle.contract.RequestMetric;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.PrimingIssuer;
import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.storage.Storage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Protects the request log line: one JSON line per request, in CloudWatch Embedded Metric Format
 * (metrics per operation), with what happened and never what was sent: no header values, no body,
 * no credentials. The metastore here is unreachable, so no service is needed.
 */
class RequestLogTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private Database database;
  private Storage storage;
  private CatalogFunction function;

  @BeforeEach
  void setUp() {
    database =
        new Database(
            () -> {
              throw new SQLException("connection refused", "08001");
            },
            1);
    storage = Storage.s3Compatible("http://127.0.0.1:9", "us-east-1", "key", "secret");
    CatalogApi api =
        CatalogApi.builder(new CatalogApi.Settings("acme", "wh"), database, storage)
            .authenticator(RootCaller.of("acme"))
            .build();
    function =
        new CatalogFunction(
            api,
            new CatalogFunction.Options(
                EnumSet.of(FunctionGroup.READ),
                "acme",
                Duration.ofSeconds(30),
                Duration.ofSeconds(2),
                1024),
            new RequestLog("PuddleTest", new PrintStream(out, true, StandardCharsets.UTF_8)));
  }

  @AfterEach
  void tearDown() {
    database.close();
    storage.close();
  }

  @Test
  void eachRequestWritesOneLineWithMetricsAndNoSecrets() throws IOException {
    function.handle(
        event(
            "POST /v1/{prefix}/namespaces",
            "/v1/wh/namespaces",
            Map.of("prefix", "wh"),
            "{\"namespace\":[\"s3cr3t-body\"]}"),
        null);
    function.handle(
        event(
            "GET /v1/{prefix}/namespaces/{namespace}",
            "/v1/wh/namespaces/sales",
            Map.of("prefix", "wh", "namespace", "sales"),
            null),
        null);

    List<JsonNode> lines = lines();
    assertThat(lines).hasSize(2);
    JsonNode refused = lines.get(0);
    assertThat(refused.get("operation").asText()).isEqualTo("createNamespace");
    assertThat(refused.get("status").asInt()).isEqualTo(403);
    assertThat(refused.get("errorType").asText()).isEqualTo("ForbiddenException");
    assertThat(refused.get("realm").asText()).isEqualTo("acme");
    assertThat(refused.get("functionGroup").asText()).isEqualTo("read");
    assertThat(refused.get("coldStart").asBoolean()).isTrue();
    assertThat(refused.get("ClientErrors").asInt()).isEqualTo(1);

    JsonNode unavailable = lines.get(1);
    assertThat(unavailable.get("status").asInt()).isEqualTo(503);
    assertThat(unavailable.get("errorType").asText()).isEqualTo("ServiceUnavailableException");
    assertThat(unavailable.get("Errors").asInt()).isEqualTo(1);
    assertThat(unavailable.get("coldStart").asBoolean()).isFalse();
    JsonNode directive = unavailable.at("/_aws/CloudWatchMetrics/0");
    assertThat(directive.get("Namespace").asText()).isEqualTo("PuddleTest");
    // one dimension, the function group, whose values are few: what CloudWatch bills is bounded
    assertThat(directive.get("Dimensions")).hasSize(1);
    assertThat(directive.at("/Dimensions/0")).hasSize(1);
    assertThat(directive.at("/Dimensions/0/0").asText()).isEqualTo(RequestMetric.DIMENSION);
    assertThat(unavailable.get(RequestMetric.DIMENSION).asText()).isEqualTo("read");
    List<String> metrics = new ArrayList<>();
    directive.get("Metrics").forEach(metric -> metrics.add(metric.get("Name").asText()));
    // a read function commits nothing: no commit counts
    assertThat(metrics).containsExactly("Latency", "Errors", "ClientErrors");
    metrics.forEach(name -> assertThat(unavailable.has(name)).as(name).isTrue());
    // the operation is a field for Logs Insights, never a dimension
    assertThat(unavailable.get("operation").asText()).isEqualTo("loadNamespaceMetadata");
    assertThat(directive.toString()).doesNotContain("Operation");

    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).doesNotContain("s3cr3t").doesNotContain("Bearer");
  }

  @Test
  void theWriteFunctionAndTheTwinAlsoCountCommitRetriesAndConflictsEveryOtherGroupDoesNot()
      throws IOException {
    RequestLog log =
        new RequestLog("PuddleTest", new PrintStream(out, true, StandardCharsets.UTF_8));
    for (String group : List.of("read", "write", "token", "sign", "admin", "all")) {
      JsonNode line =
          JSON.readTree(
              log.line(
                  new RequestLog.Entry(
                      "id",
                      "POST",
                      "/v1/wh/namespaces/a/tables/t",
                      "updateTable",
                      group,
                      "acme",
                      "wh",
                      "root",
                      409,
                      "CommitFailedException",
                      12.5,
                      false,
                      false,
                      new dev.puddle.core.api.RequestStats()),
                  0));
      List<String> metrics = new ArrayList<>();
      line.at("/_aws/CloudWatchMetrics/0/Metrics")
          .forEach(metric -> metrics.add(metric.get("Name").asText()));
      boolean commits = group.equals("write") || group.equals("all");
      assertThat(metrics)
          .as(group)
          .containsExactlyElementsOf(
              java.util.Arrays.stream(RequestMetric.values())
                  .filter(m -> commits || m.emittedBy(FunctionGroup.READ))
                  .map(RequestMetric::metricName)
                  .toList());
      metrics.forEach(name -> assertThat(line.has(name)).as(name).isTrue());
      assertThat(line.get(RequestMetric.DIMENSION).asText()).isEqualTo(group);
      assertThat(line.get("ClientErrors").asInt()).isEqualTo(1);
    }
    // per group, not per operation: the metrics a catalog in constant use pays for, at most
    assertThat(RequestMetric.billed()).isEqualTo(17);
  }

  @Test
  void theLineNamesTheAuthenticatedPrincipalAndRealmButNeverTheToken() throws IOException {
    // an issuer with its key in memory, binding its tokens to the realm "tenant-b"
    PrimingIssuer issuer = PrimingIssuer.generate("tenant-b", Clock.systemUTC());
    CatalogApi api =
        CatalogApi.builder(new CatalogApi.Settings("acme", "wh"), database, storage)
            .authenticator(
                new JwtAuthenticator(
                    List.of(issuer.trusted()),
                    JwtAuthenticator.DEFAULT_CLOCK_SKEW,
                    Clock.systemUTC()))
            .build();
    CatalogFunction authenticating =
        new CatalogFunction(
            api,
            new CatalogFunction.Options(
                EnumSet.of(FunctionGroup.READ),
                "acme",
                Duration.ofSeconds(30),
                Duration.ofSeconds(2),
                1024),
            new RequestLog("PuddleTest", new PrintStream(out, true, StandardCharsets.UTF_8)));
    String token = issuer.token();
    Map<String, String> path = Map.of("prefix", "wh", "namespace", "sales");
    String routeKey = "GET /v1/{prefix}/namespaces/{namespace}";

    authenticating.handle(event(routeKey, "/v1/wh/namespaces/sales", path, null, token), null);
    authenticating.handle(
        event(routeKey, "/v1/wh/namespaces/sales", path, null, "not-a-token"), null);

    List<JsonNode> lines = lines();
    JsonNode authenticated = lines.get(0);
    // past authentication, the unreachable metastore answers
    assertThat(authenticated.get("status").asInt()).isEqualTo(503);
    assertThat(authenticated.get("principal").asText()).isEqualTo(PrimingIssuer.PRINCIPAL);
    assertThat(authenticated.get("realm").asText()).isEqualTo("tenant-b");
    JsonNode refused = lines.get(1);
    assertThat(refused.get("status").asInt()).isEqualTo(401);
    assertThat(refused.get("principal").isNull()).isTrue();
    assertThat(refused.get("realm").asText()).isEqualTo("acme");
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).doesNotContain(token).doesNotContain(token.split("\\.")[2]);
  }

  @Test
  void theTextLineGivesTimeMethodPathStatusLatencyAndPrincipalAndNothingSent() {
    PrimingIssuer issuer = PrimingIssuer.generate("acme", Clock.systemUTC());
    CatalogApi api =
        CatalogApi.builder(new CatalogApi.Settings("acme", "wh"), database, storage)
            .authenticator(
                new JwtAuthenticator(
                    List.of(issuer.trusted()),
                    JwtAuthenticator.DEFAULT_CLOCK_SKEW,
                    Clock.systemUTC()))
            .build();
    ZoneOffset zone = ZoneOffset.ofHoursMinutes(5, 30);
    CatalogFunction texting =
        new CatalogFunction(
            api,
            new CatalogFunction.Options(
                EnumSet.of(FunctionGroup.READ),
                "acme",
                Duration.ofSeconds(30),
                Duration.ofSeconds(2),
                1024),
            RequestLog.text(new PrintStream(out, true, StandardCharsets.UTF_8), zone));
    String token = issuer.token();
    LocalTime sent = LocalTime.now(zone).truncatedTo(ChronoUnit.MILLIS);
    Map<String, String> path = Map.of("prefix", "wh", "namespace", "sales");
    String routeKey = "GET /v1/{prefix}/namespaces/{namespace}";

    texting.handle(event(routeKey, "/v1/wh/namespaces/sales", path, null, "s3cr3t-token"), null);
    texting.handle(event(routeKey, "/v1/wh/namespaces/sales", path, null, token), null);

    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(2);
    String time = "\\d{2}:\\d{2}:\\d{2}\\.\\d{3}";
    assertThat(lines.get(0))
        .matches(time + " GET /v1/wh/namespaces/sales 401 NotAuthorizedException \\d+\\.\\d ms -");
    // past authentication, the unreachable metastore answers; the caller is named
    assertThat(lines.get(1))
        .matches(
            time
                + " GET /v1/wh/namespaces/sales 503 ServiceUnavailableException \\d+\\.\\d ms "
                + PrimingIssuer.PRINCIPAL);
    // the time is the request's, in the zone asked for (a day's wrap aside)
    LocalTime logged = LocalTime.parse(lines.get(1).substring(0, 12));
    assertThat(Math.floorMod(Duration.between(sent, logged).toSeconds(), 86_400)).isLessThan(60);
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).doesNotContain("s3cr3t").doesNotContain(token).doesNotContain("Bearer");
  }

  private List<JsonNode> lines() throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }

  private static HttpApiEvent event(
      String routeKey, String path, Map<String, String> parameters, String body) {
    return event(routeKey, path, parameters, body, "s3cr3t-token");
  }

  private static HttpApiEvent event(
      String routeKey, String path, Map<String, String> parameters, String body, String token) {
    String method = routeKey.substring(0, routeKey.indexOf(' '));
    return new HttpApiEvent(
        "2.0",
        routeKey,
        path,
        "",
        null,
        Map.of("authorization", "Bearer " + token, "content-type", "application/json"),
        null,
        parameters,
        new HttpApiEvent.RequestContext(
            "123456789012",
            "api",
            "api.example",
            new HttpApiEvent.Http(method, path, "HTTP/1.1", "203.0.113.1", "test"),
            "request-1",
            routeKey,
            "$default",
            "01/Jan/2026:00:00:00 +0000",
            0L),
        body,
        false);
  }
}
