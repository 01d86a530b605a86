package dev.puddle.core.api;

import dev.puddle.contract.Route;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An HTTP-agnostic catalog request: the matched route, its decoded path variables, the decoded
 * query parameters, the headers (names in lower case) and the body.
 */
public record Request(
    Route route,
    Map<String, String> pathParameters,
    Map<String, String> queryParameters,
    Map<String, String> headers,
    String body) {

  public Request {
    pathParameters = Map.copyOf(pathParameters);
    queryParameters = Map.copyOf(queryParameters);
    headers = Map.copyOf(headers);
    body = body == null ? "" : body;
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
