package dev.puddle.functions;

import dev.puddle.contract.Route;
import dev.puddle.contract.RouteMatch;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.rest.ErrorMapper;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Converts API Gateway HTTP API events into core requests and core responses back. */
final class HttpApiEvents {
  private HttpApiEvents() {}

  /**
   * The core request of an event, or empty when no route matches. API Gateway gives the matched
   * route key and decoded path parameters; behind a catch-all route the decoded path is matched
   * against the route table instead.
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
                body(event)));
  }

  /** The response to an event that matched no route, as API Gateway would answer it. */
  static Response noRoute(HttpApiEvent event) {
    String path = event.rawPath() == null ? "" : event.rawPath();
    if (Route.pathExists(path)) {
      return ErrorMapper.error(
          405, "MethodNotAllowedException", "Method not allowed: " + method(event) + " " + path);
    }
    return ErrorMapper.error(404, "NotFoundException", "No route for " + method(event) + " " + path);
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
