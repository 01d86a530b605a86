package dev.puddle.core.api;

import java.util.HashMap;
import java.util.Map;

/** An HTTP-agnostic response: status, headers and an optional JSON body. */
public record Response(int status, Map<String, String> headers, String body) {
  public static final String JSON = "application/json";

  public Response {
    headers = Map.copyOf(headers);
  }

  public static Response json(int status, String body) {
    return new Response(status, Map.of("content-type", JSON), body);
  }

  public static Response noContent() {
    return new Response(204, Map.of(), null);
  }

  public Response withHeader(String name, String value) {
    Map<String, String> copy = new HashMap<>(headers);
    copy.put(name, value);
    return new Response(status, copy, body);
  }
}
