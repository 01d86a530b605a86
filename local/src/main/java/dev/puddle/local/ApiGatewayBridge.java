package dev.puddle.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.puddle.core.api.Route;
import dev.puddle.core.api.RouteMatch;
import dev.puddle.functions.HttpApiEvent;
import dev.puddle.functions.HttpApiResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Plays API Gateway's HTTP API in front of a Lambda handler: matches the route from the route
 * table, builds the payload format 2.0 event exactly as API Gateway would (path and query
 * decoded, header names in lower case, multi-values joined with commas, binary bodies in
 * base64), invokes the handler with it as JSON, and turns its JSON response back into HTTP.
 */
final class ApiGatewayBridge implements HttpHandler {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static final DateTimeFormatter REQUEST_TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);

  private final RequestStreamHandler handler;
  private final InFlight inFlight;

  ApiGatewayBridge(RequestStreamHandler handler, InFlight inFlight) {
    this.handler = handler;
    this.inFlight = inFlight;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    if (!inFlight.enter()) {
      try (exchange) {
        send(exchange, exchange.getRequestMethod(), 503, Map.of("content-type", "application/json"),
            "{\"message\":\"Service Unavailable\"}".getBytes(StandardCharsets.UTF_8));
      }
      return;
    }
    try {
      invoke(exchange);
    } finally {
      inFlight.exit();
    }
  }

  private void invoke(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
      String path = exchange.getRequestURI().getPath();
      Optional<RouteMatch> match = Route.match(method, path);
      if (match.isEmpty()) {
        send(exchange, method, 404, Map.of("content-type", "application/json"),
            "{\"message\":\"Not Found\"}".getBytes(StandardCharsets.UTF_8));
        return;
      }
      HttpApiEvent event = toEvent(exchange, method, path, match.get());
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      String requestId = event.requestContext().requestId();
      handler.handleRequest(
          new ByteArrayInputStream(JSON.writeValueAsBytes(event)), output, new LocalContext(requestId));
      HttpApiResponse response = JSON.readValue(output.toByteArray(), HttpApiResponse.class);
      byte[] body =
          response.body() == null
              ? new byte[0]
              : response.isBase64Encoded()
                  ? Base64.getDecoder().decode(response.body())
                  : response.body().getBytes(StandardCharsets.UTF_8);
      Map<String, String> headers = new LinkedHashMap<>();
      if (response.headers() != null) {
        headers.putAll(response.headers());
      }
      headers.put("apigw-requestid", requestId);
      send(exchange, method, response.statusCode(), headers, body);
    } catch (RuntimeException e) {
      // API Gateway answers a failed integration with 500 and this body
      send(exchange, exchange.getRequestMethod(), 500, Map.of("content-type", "application/json"),
          "{\"message\":\"Internal Server Error\"}".getBytes(StandardCharsets.UTF_8));
      throw e;
    }
  }

  private static HttpApiEvent toEvent(
      HttpExchange exchange, String method, String path, RouteMatch match) throws IOException {
    Map<String, String> headers = new LinkedHashMap<>();
    exchange
        .getRequestHeaders()
        .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), String.join(",", values)));
    String rawQuery = exchange.getRequestURI().getRawQuery();
    byte[] bytes = exchange.getRequestBody().readAllBytes();
    Optional<String> text = utf8(bytes);
    String body = bytes.length == 0 ? null : text.orElseGet(() -> Base64.getEncoder().encodeToString(bytes));
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    String requestId = UUID.randomUUID().toString();
    HttpApiEvent.Http http =
        new HttpApiEvent.Http(
            method,
            path,
            exchange.getProtocol(),
            exchange.getRemoteAddress().getAddress().getHostAddress(),
            headers.get("user-agent"));
    HttpApiEvent.RequestContext context =
        new HttpApiEvent.RequestContext(
            "000000000000",
            "local",
            headers.getOrDefault("host", "localhost"),
            http,
            requestId,
            match.route().routeKey(),
            "$default",
            REQUEST_TIME.format(now),
            now.toInstant().toEpochMilli());
    return new HttpApiEvent(
        "2.0",
        match.route().routeKey(),
        path,
        rawQuery == null ? "" : rawQuery,
        null,
        headers,
        rawQuery == null ? null : queryParameters(rawQuery),
        match.pathParameters().isEmpty() ? null : match.pathParameters(),
        context,
        body,
        bytes.length > 0 && text.isEmpty());
  }

  /** Query parameters, percent-decoded, repeated names joined with commas, as API Gateway does. */
  static Map<String, String> queryParameters(String rawQuery) {
    Map<String, String> result = new LinkedHashMap<>();
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = percentDecode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : percentDecode(pair.substring(eq + 1));
      result.merge(name, value, (a, b) -> a + "," + b);
    }
    return result;
  }

  private static String percentDecode(String value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '%' && i + 2 < value.length()) {
        int hi = Character.digit(value.charAt(i + 1), 16);
        int lo = Character.digit(value.charAt(i + 2), 16);
        if (hi >= 0 && lo >= 0) {
          out.write(hi * 16 + lo);
          i += 2;
          continue;
        }
      }
      byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
      out.write(bytes, 0, bytes.length);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static Optional<String> utf8(byte[] bytes) {
    try {
      return Optional.of(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  private static void send(
      HttpExchange exchange, String method, int status, Map<String, String> headers, byte[] body)
      throws IOException {
    headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
    boolean noBody = "HEAD".equals(method) || status == 204 || status == 304 || body.length == 0;
    exchange.sendResponseHeaders(status, noBody ? -1 : body.length);
    if (!noBody) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

}
