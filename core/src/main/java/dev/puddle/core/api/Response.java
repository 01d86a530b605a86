package dev.puddle.core.api;

import java.util.HashMap;
import java.util.Map;

/**
 * An HTTP-agnostic response: status, headers, an optional JSON body and, for a body served many
 * times (a cached table load), the body already gzipped, so that it is not compressed again.
 */
public record Response(int status, Map<String, String> headers, String body, byte[] gzippedBody) {
  public static final String JSON = "application/json";

  public Response {
    headers = Map.copyOf(headers);
  }

  public Response(int status, Map<String, String> headers, String body) {
    this(status, headers, body, null);
  }

  public static Response json(int status, String body) {
    return new Response(status, Map.of("content-type", JSON), body);
  }

  /** A JSON body together with its gzip ({@link Gzip#compress(String)}). */
  public static Response json(int status, String body, byte[] gzippedBody) {
    return new Response(status, Map.of("content-type", JSON), body, gzippedBody);
  }

  public static Response noContent() {
    return new Response(204, Map.of(), null);
  }

  public Response withHeader(String name, String value) {
    Map<String, String> copy = new HashMap<>(headers);
    copy.put(name, value);
    return new Response(status, copy, body, gzippedBody);
  }
}
