package dev.puddle.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.Route;
import dev.puddle.contract.RouteMatch;
import dev.puddle.core.api.RequestLimits;
import dev.puddle.core.rest.ErrorMapper;
import dev.puddle.functions.HttpApiEvent;
import dev.puddle.functions.HttpApiResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.iceberg.exceptions.BadRequestException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays API Gateway's HTTP API in front of a Lambda handler: matches the route from the route
 * table, builds the payload format 2.0 event exactly as API Gateway would (path and query decoded,
 * header names in lower case, multi-values joined with commas, binary bodies in base64), invokes
 * the handler with it as JSON, and turns its JSON response back into HTTP, with the header names
 * the handler gave.
 */
final class ApiGatewayBridge extends Handler.Abstract {
  private static final Logger LOG = LoggerFactory.getLogger(ApiGatewayBridge.class);
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static final DateTimeFormatter REQUEST_TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
          .withZone(ZoneOffset.UTC);

  /** The request time of the current second, formatted once: it has no finer part. */
  private record Second(long epochSecond, String text) {}

  /** The route key of API Gateway's catch-all route, where a path no route has goes. */
  private static final String DEFAULT_ROUTE = "$default";

  private static volatile Second second = new Second(-1, "");

  private final RequestStreamHandler handler;
  private final InFlight inFlight;

  ApiGatewayBridge(RequestStreamHandler handler, InFlight inFlight) {
    this.handler = handler;
    this.inFlight = inFlight;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    if (!inFlight.enter()) {
      send(
          request,
          response,
          callback,
          503,
          Map.of("content-type", "application/json"),
          "{\"message\":\"Service Unavailable\"}".getBytes(StandardCharsets.UTF_8));
      return true;
    }
    // API Gateway waits for the function however long it takes (up to its own timeout, which
    // LocalContext plays): a request being handled is no idle connection for Jetty to cut
    request.addIdleTimeoutListener(timeout -> false);
    // counted until the response is sent, so that a drain lets it reach the client
    invoke(request, response, Callback.from(callback, inFlight::exit));
    return true;
  }

  private void invoke(Request request, Response response, Callback callback) {
    String method = request.getMethod().toUpperCase(Locale.ROOT);
    // decoded as the JDK's URI#getPath does; Jetty's decoded path would also have ;parameters
    // dropped and dot segments resolved
    Optional<String> decoded = percentDecode(request.getHttpURI().getPath());
    String rawQuery = request.getHttpURI().getQuery();
    Optional<Map<String, String>> query =
        rawQuery == null ? Optional.of(Map.of()) : queryParameters(rawQuery);
    if (decoded.isEmpty() || query.isEmpty()) {
      send(
          request,
          response,
          callback,
          ErrorMapper.toResponse(
              new BadRequestException("Malformed request: the URI is not UTF-8 once decoded")));
      return;
    }
    String path = decoded.get();
    if (request.getLength() > RequestLimits.MAX_BODY_BYTES) {
      send(request, response, callback, ErrorMapper.contentTooLarge(request.getLength()));
      return;
    }
    byte[] requestBody;
    try (InputStream in = Content.Source.asInputStream(request)) {
      // a body without a length is read up to the limit and no further
      requestBody = in.readNBytes(RequestLimits.MAX_BODY_BYTES + 1);
    } catch (IOException e) {
      // the client went away while sending
      callback.failed(e);
      return;
    }
    if (requestBody.length > RequestLimits.MAX_BODY_BYTES) {
      send(request, response, callback, ErrorMapper.contentTooLarge(-1));
      return;
    }
    try {
      // a path no route has goes to the catch-all route, as on AWS: the function answers it
      Optional<RouteMatch> match = Route.match(method, path);
      String routeKey = match.map(m -> m.route().routeKey()).orElse(DEFAULT_ROUTE);
      Map<String, String> pathParameters = match.map(RouteMatch::pathParameters).orElse(Map.of());
      HttpApiEvent event =
          toEvent(request, method, path, query.get(), routeKey, pathParameters, requestBody);
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      String requestId = event.requestContext().requestId();
      handler.handleRequest(
          new ByteArrayInputStream(JSON.writeValueAsBytes(event)),
          output,
          new LocalContext(requestId));
      HttpApiResponse result = JSON.readValue(output.toByteArray(), HttpApiResponse.class);
      byte[] body =
          result.body() == null
              ? new byte[0]
              : result.isBase64Encoded()
                  ? Base64.getDecoder().decode(result.body())
                  : result.body().getBytes(StandardCharsets.UTF_8);
      Map<String, String> headers = new LinkedHashMap<>();
      if (result.headers() != null) {
        headers.putAll(result.headers());
      }
      headers.put("apigw-requestid", requestId);
      send(request, response, callback, result.statusCode(), headers, body);
    } catch (IOException | RuntimeException e) {
      // API Gateway answers a failed integration with 500 and this body; Lambda logs the failure
      LOG.error("The function failed on {} {}", method, path, e);
      send(
          request,
          response,
          callback,
          500,
          Map.of("content-type", "application/json"),
          "{\"message\":\"Internal Server Error\"}".getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Sends an error the front raises itself, as the function would answer it. */
  private static void send(
      Request request, Response response, Callback callback, dev.puddle.core.api.Response error) {
    send(
        request,
        response,
        callback,
        error.status(),
        error.headers(),
        error.body().getBytes(StandardCharsets.UTF_8));
  }

  private static HttpApiEvent toEvent(
      Request request,
      String method,
      String path,
      Map<String, String> query,
      String routeKey,
      Map<String, String> pathParameters,
      byte[] bytes) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (HttpField field : request.getHeaders()) {
      headers.merge(field.getLowerCaseName(), field.getValue(), (a, b) -> a + "," + b);
    }
    String rawQuery = request.getHttpURI().getQuery();
    Optional<String> text = utf8(bytes);
    String body =
        bytes.length == 0 ? null : text.orElseGet(() -> Base64.getEncoder().encodeToString(bytes));
    long now = System.currentTimeMillis();
    String requestId = requestId();
    HttpApiEvent.Http http =
        new HttpApiEvent.Http(
            method,
            path,
            request.getConnectionMetaData().getProtocol(),
            sourceIp(request.getConnectionMetaData().getRemoteSocketAddress()),
            headers.get("user-agent"));
    HttpApiEvent.RequestContext context =
        new HttpApiEvent.RequestContext(
            "000000000000",
            "local",
            headers.getOrDefault("host", "localhost"),
            http,
            requestId,
            routeKey,
            "$default",
            requestTime(now),
            now);
    return new HttpApiEvent(
        "2.0",
        routeKey,
        path,
        rawQuery == null ? "" : rawQuery,
        null,
        headers,
        rawQuery == null ? null : query,
        pathParameters.isEmpty() ? null : pathParameters,
        context,
        body,
        bytes.length > 0 && text.isEmpty());
  }

  /** {@code time}: the request's second, as API Gateway writes it. */
  private static String requestTime(long epochMillis) {
    long epochSecond = Math.floorDiv(epochMillis, 1000);
    Second current = second;
    if (current.epochSecond() != epochSecond) {
      current = new Second(epochSecond, REQUEST_TIME.format(Instant.ofEpochSecond(epochSecond)));
      second = current;
    }
    return current.text();
  }

  /**
   * A random UUID, as API Gateway's request ids are unique, drawn from the thread's generator: a
   * request id is no secret, so it need not cost a draw from the shared SecureRandom.
   */
  private static String requestId() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
    long low = (random.nextLong() & ~(3L << 62)) | (1L << 63); // IETF variant
    return new UUID(high, low).toString();
  }

  /**
   * Query parameters, percent-decoded, repeated names joined with commas, as API Gateway does;
   * empty if one is not UTF-8 once decoded.
   */
  static Optional<Map<String, String>> queryParameters(String rawQuery) {
    Map<String, String> result = new LinkedHashMap<>();
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      Optional<String> name = percentDecode(eq < 0 ? pair : pair.substring(0, eq));
      Optional<String> value = eq < 0 ? Optional.of("") : percentDecode(pair.substring(eq + 1));
      if (name.isEmpty() || value.isEmpty()) {
        return Optional.empty();
      }
      result.merge(name.get(), value.get(), (a, b) -> a + "," + b);
    }
    return Optional.of(result);
  }

  /** A percent-decoded URI part, or empty if the bytes it decodes to are not UTF-8. */
  private static Optional<String> percentDecode(String value) {
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
    return utf8(out.toByteArray());
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

  /** The client's address as API Gateway gives it: no brackets around an IPv6 address. */
  private static String sourceIp(SocketAddress remote) {
    return remote instanceof InetSocketAddress address && address.getAddress() != null
        ? address.getAddress().getHostAddress()
        : String.valueOf(remote);
  }

  private static void send(
      Request request,
      Response response,
      Callback callback,
      int status,
      Map<String, String> headers,
      byte[] body) {
    response.setStatus(status);
    HttpFields.Mutable fields = response.getHeaders();
    headers.forEach(fields::put);
    boolean noBody =
        HttpMethod.HEAD.is(request.getMethod())
            || status == 204
            || status == 304
            || body.length == 0;
    if (noBody) {
      callback.succeeded();
    } else {
      response.write(true, ByteBuffer.wrap(body), callback);
    }
  }
}
