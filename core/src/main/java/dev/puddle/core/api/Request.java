package dev.puddle.core.api;

import dev.puddle.contract.Route;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An HTTP-agnostic catalog request: the matched route, its decoded path variables, the decoded
 * query parameters, the headers (names in lower case), the body, and the request id API Gateway
 * gave it (null where there is none), which the events its changes record carry.
 */
public record Request(
    Route route,
    Map<String, String> pathParameters,
    Map<String, String> queryParameters,
    Map<String, String> headers,
    String body,
    String requestId) {

  public Request {
    pathParameters = Map.copyOf(pathParameters);
    queryParameters = Map.copyOf(queryParameters);
    headers = Map.copyOf(headers);
    body = body == null ? "" : body;
  }

  /** A request without a request id: made in-process (priming, tests), not by API Gateway. */
  public Request(
      Route route,
      Map<String, String> pathParameters,
      Map<String, String> queryParameters,
      Map<String, String> headers,
      String body) {
    this(route, pathParameters, queryParameters, headers, body, null);
  }

  public Optional<String> pathParameter(String name) {
    return Optional.ofNullable(pathParameters.get(name));
  }

  public Optional<String> queryParameter(String name) {
    return Optional.ofNullable(queryParameters.get(name));
  }

  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }
}
