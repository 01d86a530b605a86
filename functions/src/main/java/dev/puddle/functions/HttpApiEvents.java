package dev.puddle.functions;

import dev.puddle.contract.Route;
import dev.puddle.contract.RouteMatch;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.RequestLimits;
import dev.puddle.core.api.Response;
import dev.puddle.core.rest.ErrorMapper;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import org.apache.iceberg.exceptions.BadRequestException;

/** Converts API Gateway HTTP API events into core requests and core responses back. */
final class HttpApiEvents {
  private HttpApiEvents() {}

  /**
   * The core request of an event, or empty when no route matches. API Gateway gives the matched
   * route key and decoded path parameters; behind a catch-all route the decoded path is matched
   * against the route table instead. The request keeps API Gateway's request id, which the events
   * of its changes carry.
   */
  static Optional<Request> toRequest(HttpApiEvent event) {
    Optional<RouteMatch> match =
        Optional.ofNullable(event.routeKey())
            .flatMap(Route::forRouteKey)
            .map(route -> new RouteMatch(route, orEmpty(event.pathParameters())));
    if (match.isEmpty()) {
      match = Route.match(method(event), event.rawPath() == null ? "" : event.rawPath());
    }
    return match.map(
        m ->
            new Request(
                m.route(),
                m.pathParameters(),
                orEmpty(event.queryStringParameters()),
                lowerCaseKeys(orEmpty(event.headers())),
                body(event),
                event.requestContext() == null ? null : event.requestContext().requestId()));
  }

  /**
   * The response to an event that matched no route, as the catch-all route answers it: 405 with
   * {@code Allow} for a path some route has with another method, else 404.
   */
  static Response noRoute(HttpApiEvent event) {
    String path = event.rawPath() == null ? "" : event.rawPath();
    SortedSet<String> allowed = Route.allowedMethods(path);
    return allowed.isEmpty()
        ? ErrorMapper.noRoute(method(event), path)
        : ErrorMapper.methodNotAllowed(method(event), path, allowed);
  }

  /**
   * The refusal of an event whose body the function does not take, decided before the body is
   * parsed: 413 for one over API Gateway's limit; 400 for a binary body (API Gateway base64-encodes
   * every body that is not text) that is not UTF-8, as every body Puddle reads is JSON or a form:
   * never text with replacement characters that would end up in names.
   */
  static Optional<Response> refusal(HttpApiEvent event) {
    String body = event.body();
    if (body == null) {
      return Optional.empty();
    }
    long bytes = event.isBase64Encoded() ? base64Length(body) : utf8Length(body);
    if (bytes > RequestLimits.MAX_BODY_BYTES) {
      return Optional.of(ErrorMapper.contentTooLarge(bytes));
    }
    if (event.isBase64Encoded()) {
      try {
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(Base64.getDecoder().decode(body)));
      } catch (IllegalArgumentException | CharacterCodingException e) {
        return Optional.of(
            ErrorMapper.toResponse(
                new BadRequestException("Malformed request: the body is not valid UTF-8")));
      }
    }
    return Optional.empty();
  }

  /** The decoded length of base64 text (padding excluded); an estimate if it is malformed. */
  private static long base64Length(String text) {
    int padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
    return (long) text.length() / 4 * 3 - padding;
  }

  /** The UTF-8 length of text, counted only when it may be over the limit. */
  private static long utf8Length(String text) {
    if (text.length() > RequestLimits.MAX_BODY_BYTES) {
      return text.length(); // at least this many bytes: too large whatever the characters
    }
    if ((long) text.length() * 3 <= RequestLimits.MAX_BODY_BYTES) {
      return text.length(); // not exact, but within the limit whatever the characters
    }
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  static String method(HttpApiEvent event) {
    if (event.requestContext() != null && event.requestContext().http() != null) {
      return event.requestContext().http().method().toUpperCase(Locale.ROOT);
    }
    String key = event.routeKey();
    return key != null && key.contains(" ") ? key.substring(0, key.indexOf(' ')) : "GET";
  }

  private static String body(HttpApiEvent event) {
    if (event.body() == null) {
      return "";
    }
    return event.isBase64Encoded()
        ? new String(Base64.getDecoder().decode(event.body()), StandardCharsets.UTF_8)
        : event.body();
  }

  private static Map<String, String> lowerCaseKeys(Map<String, String> headers) {
    Map<String, String> result = new HashMap<>();
    headers.forEach((name, value) -> result.put(name.toLowerCase(Locale.ROOT), value));
    return result;
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }
}
