package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.Route;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.RequestLimits;
import dev.puddle.core.api.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Protects the conversion between API Gateway HTTP API events and core requests: the route comes
 * from the route key or, behind a {@code $default} catch-all, from the decoded path; bodies arrive
 * decoded; unmatched requests get 404 or 405 as API Gateway would answer them. It also checks every
 * sample in {@code events/} against the route table.
 */
class HttpApiEventsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path EVENTS = Path.of(System.getProperty("puddle.events.dir", "../events"));
  private static final String LOAD_TABLE_KEY =
      "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}";

  @Test
  void theRouteKeyPicksTheRouteWithApiGatewaysPathParameters() {
    HttpApiEvent event =
        event(
            "GET",
            LOAD_TABLE_KEY,
            "/v1/wh/namespaces/sales\u001feu/tables/orders",
            Map.of("prefix", "wh", "namespace", "sales\u001feu", "table", "orders"),
            null,
            false);

    Request request = HttpApiEvents.toRequest(event).orElseThrow();

    assertThat(request.route()).isEqualTo(Route.LOAD_TABLE);
    assertThat(request.pathParameters())
        .isEqualTo(Map.of("prefix", "wh", "namespace", "sales\u001feu", "table", "orders"));
  }

  @Test
  void behindTheDefaultRouteTheDecodedPathIsMatched() {
    HttpApiEvent event =
        event("GET", "$default", "/v1/wh/namespaces/sales\u001feu/tables", null, null, false);

    Request request = HttpApiEvents.toRequest(event).orElseThrow();

    assertThat(request.route()).isEqualTo(Route.LIST_TABLES);
    assertThat(request.pathParameters())
        .isEqualTo(Map.of("prefix", "wh", "namespace", "sales\u001feu"));
  }

  @Test
  void queryParametersAndHeadersPassThroughWithHeaderNamesInLowerCase() {
    HttpApiEvent event =
        new HttpApiEvent(
            "2.0",
            LOAD_TABLE_KEY,
            "/v1/wh/namespaces/sales/tables/orders",
            "snapshots=refs",
            null,
            Map.of("If-None-Match", "\"abc\""),
            Map.of("snapshots", "refs"),
            Map.of("prefix", "wh", "namespace", "sales", "table", "orders"),
            context("GET", "/v1/wh/namespaces/sales/tables/orders", LOAD_TABLE_KEY),
            null,
            false);

    Request request = HttpApiEvents.toRequest(event).orElseThrow();

    assertThat(request.queryParameter("snapshots")).contains("refs");
    assertThat(request.headers()).containsEntry("if-none-match", "\"abc\"");
  }

  @Test
  void aBase64BodyArrivesDecoded() {
    String json = "{\"namespace\":[\"Umsätze\"],\"properties\":{}}";
    HttpApiEvent event =
        event(
            "POST",
            "POST /v1/{prefix}/namespaces",
            "/v1/wh/namespaces",
            Map.of("prefix", "wh"),
            Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)),
            true);

    assertThat(HttpApiEvents.toRequest(event).orElseThrow().body()).isEqualTo(json);
  }

  @Test
  void aTextBodyArrivesAsItIs() {
    String json = "{\"namespace\":[\"sales\"]}";
    HttpApiEvent event =
        event(
            "POST",
            "POST /v1/{prefix}/namespaces",
            "/v1/wh/namespaces",
            Map.of("prefix", "wh"),
            json,
            false);

    assertThat(HttpApiEvents.toRequest(event).orElseThrow().body()).isEqualTo(json);
  }

  @Test
  void noBodyIsAnEmptyBody() {
    HttpApiEvent event = event("GET", "GET /v1/config", "/v1/config", null, null, false);

    assertThat(HttpApiEvents.toRequest(event).orElseThrow().body()).isEmpty();
  }

  @Test
  void anUnknownPathIsNotFound() throws IOException {
    HttpApiEvent event = event("GET", "$default", "/v1/wh/nothing/here", null, null, false);

    assertThat(HttpApiEvents.toRequest(event)).isEmpty();
    Response response = HttpApiEvents.noRoute(event);
    assertThat(response.status()).isEqualTo(404);
    assertThat(JSON.readTree(response.body()).at("/error/type").asText())
        .isEqualTo("NotFoundException");
  }

  @Test
  void aKnownPathWithAnotherMethodIsMethodNotAllowed() throws IOException {
    HttpApiEvent event =
        event("PUT", "$default", "/v1/wh/namespaces/sales/tables/orders", null, null, false);

    assertThat(HttpApiEvents.toRequest(event)).isEmpty();
    Response response = HttpApiEvents.noRoute(event);
    assertThat(response.status()).isEqualTo(405);
    assertThat(JSON.readTree(response.body()).at("/error/code").asInt()).isEqualTo(405);
    assertThat(response.headers()).containsEntry("allow", "DELETE, GET, HEAD, POST");
  }

  @Test
  void aBodyOverApiGatewaysLimitIsRefusedBeforeItIsRead() throws IOException {
    String body = "x".repeat(RequestLimits.MAX_BODY_BYTES + 1);
    HttpApiEvent event =
        event(
            "POST",
            "POST /v1/{prefix}/namespaces",
            "/v1/wh/namespaces",
            Map.of("prefix", "wh"),
            body,
            false);

    Response refusal = HttpApiEvents.refusal(event).orElseThrow();
    assertThat(refusal.status()).isEqualTo(413);
    assertThat(JSON.readTree(refusal.body()).at("/error/code").asInt()).isEqualTo(413);
  }

  @Test
  void aBodyAtTheLimitIsTaken() {
    String body = "x".repeat(RequestLimits.MAX_BODY_BYTES);
    HttpApiEvent event =
        event(
            "POST",
            "POST /v1/{prefix}/namespaces",
            "/v1/wh/namespaces",
            Map.of("prefix", "wh"),
            Base64.getEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8)),
            true);

    assertThat(HttpApiEvents.refusal(event)).isEmpty();
  }

  @Test
  void aBinaryBodyThatIsNotUtf8IsABadRequest() throws IOException {
    HttpApiEvent event =
        event(
            "POST",
            "POST /v1/{prefix}/namespaces",
            "/v1/wh/namespaces",
            Map.of("prefix", "wh"),
            Base64.getEncoder().encodeToString(new byte[] {'{', (byte) 0xff, '}'}),
            true);

    Response refusal = HttpApiEvents.refusal(event).orElseThrow();
    assertThat(refusal.status()).isEqualTo(400);
    assertThat(JSON.readTree(refusal.body()).at("/error/type").asText())
        .isEqualTo("BadRequestException");
  }

  @Test
  void anEmptyVariableIsNotFound() {
    HttpApiEvent event = event("GET", "$default", "/v1/wh/namespaces//tables", null, null, false);

    assertThat(HttpApiEvents.toRequest(event)).isEmpty();
    assertThat(HttpApiEvents.noRoute(event).status()).isEqualTo(404);
  }

  static List<Path> samples() throws IOException {
    try (Stream<Path> files = Files.list(EVENTS)) {
      return files.filter(file -> file.toString().endsWith(".json")).sorted().toList();
    }
  }

  /**
   * A sample's route key, path parameters and decoded path must agree, so it converts to the same
   * request whether API Gateway routes it or a catch-all route leaves the matching to us.
   */
  @ParameterizedTest
  @MethodSource("samples")
  void everySampleConvertsToTheRequestOfItsRoute(Path sample) throws IOException {
    HttpApiEvent event = JSON.readValue(sample.toFile(), HttpApiEvent.class);
    HttpApiEvent catchAll =
        new HttpApiEvent(
            event.version(),
            "$default",
            event.rawPath(),
            event.rawQueryString(),
            event.cookies(),
            event.headers(),
            event.queryStringParameters(),
            null,
            event.requestContext(),
            event.body(),
            event.isBase64Encoded());

    Request routed = HttpApiEvents.toRequest(event).orElseThrow();
    Request matched = HttpApiEvents.toRequest(catchAll).orElseThrow();

    assertThat(sample.getFileName().toString()).isEqualTo(routed.route().operationId() + ".json");
    assertThat(event.requestContext().http().path()).isEqualTo(event.rawPath());
    assertThat(matched).isEqualTo(routed);
    if (routed.route() == Route.GET_TOKEN) {
      // OAuth2 token requests are forms
      assertThat(routed.body()).startsWith("grant_type=client_credentials&");
    } else if (event.body() != null) {
      JsonNode body = JSON.readTree(routed.body());
      assertThat(body.isObject()).as("%s has a JSON object body", sample).isTrue();
    }
  }

  private static HttpApiEvent event(
      String method,
      String routeKey,
      String path,
      Map<String, String> pathParameters,
      String body,
      boolean base64) {
    return new HttpApiEvent(
        "2.0",
        routeKey,
        path,
        "",
        null,
        Map.of("host", "a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com"),
        null,
        pathParameters,
        context(method, path, routeKey),
        body,
        base64);
  }

  private static HttpApiEvent.RequestContext context(String method, String path, String routeKey) {
    return new HttpApiEvent.RequestContext(
        "123456789012",
        "a1b2c3d4e5",
        "a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com",
        new HttpApiEvent.Http(method, path, "HTTP/1.1", "203.0.113.24", "test"),
        "JfL8sgGvoAMEJXw=",
        routeKey,
        "$default",
        "11/Jun/2024:10:00:00 +0000",
        1718100000000L);
  }
}
