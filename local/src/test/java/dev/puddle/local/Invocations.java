package dev.puddle.local;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.Route;
import dev.puddle.functions.HttpApiEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/** Invokes a Lambda handler with API Gateway events built for a route, as Lambda would. */
final class Invocations {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the handler answered, its body decoded (base64, gzip) as an HTTP client would. */
  record Answer(int status, Map<String, String> headers, String body, boolean base64) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    String errorType() {
      return json().at("/error/type").asText();
    }
  }

  private Invocations() {}

  /** The event API Gateway sends for a route, its path variables and body. */
  static HttpApiEvent event(
      Route route, Map<String, String> pathParameters, String body, Map<String, String> headers) {
    String path = route.path();
    for (Map.Entry<String, String> parameter : pathParameters.entrySet()) {
      path = path.replace("{" + parameter.getKey() + "}", parameter.getValue());
    }
    Map<String, String> allHeaders = new HashMap<>(headers);
    allHeaders.putIfAbsent("content-type", "application/json");
    return new HttpApiEvent(
        "2.0",
        route.routeKey(),
        path,
        "",
        null,
        allHeaders,
        null,
        pathParameters,
        new HttpApiEvent.RequestContext(
            "000000000000",
            "test",
            "localhost",
            new HttpApiEvent.Http(route.method(), path, "HTTP/1.1", "127.0.0.1", "test"),
            "test-" + System.nanoTime(),
            route.routeKey(),
            "$default",
            "01/Jan/2026:00:00:00 +0000",
            System.currentTimeMillis()),
        body,
        false);
  }

  static Answer invoke(RequestStreamHandler handler, HttpApiEvent event, Context context) {
    try {
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      handler.handleRequest(
          new ByteArrayInputStream(JSON.writeValueAsBytes(event)), output, context);
      JsonNode response = JSON.readTree(output.toByteArray());
      Map<String, String> headers = new HashMap<>();
      response
          .path("headers")
          .properties()
          .forEach(header -> headers.put(header.getKey(), header.getValue().asText()));
      JsonNode body = response.get("body");
      String text = body == null || body.isNull() ? null : body.asText();
      boolean base64 = response.path("isBase64Encoded").asBoolean();
      if (text != null && base64) {
        byte[] bytes = Base64.getDecoder().decode(text);
        if ("gzip".equals(headers.get("content-encoding"))) {
          try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            bytes = in.readAllBytes();
          }
        }
        text = new String(bytes, StandardCharsets.UTF_8);
      }
      return new Answer(response.get("statusCode").asInt(), headers, text, base64);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
