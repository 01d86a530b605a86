package dev.puddle.core.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.puddle.core.aws.EventBridgePublisher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/**
 * A test-only Amazon EventBridge on loopback speaking the service's JSON protocol to the real SDK
 * client: {@code POST /} with {@code X-Amz-Target: AWSEvents.PutEvents} and an {@code
 * application/x-amz-json-1.1} body of {@code Entries}, answered with {@code FailedEntryCount} and
 * one result entry per entry, in order. It validates what PutEvents validates (1 to 10 entries,
 * each with a source, a detail type and a JSON object as detail), refuses the entries whose detail
 * names an event id it is told to refuse (with an {@code InternalFailure} entry, as EventBridge
 * reports a throttled or failed entry), and records every entry it accepts. That a request is
 * signed is checked; the signature is not.
 */
public final class EventBridgeTestEndpoint implements AutoCloseable {
  /** One accepted entry, its detail parsed. */
  public record Entry(String busName, String source, String detailType, JsonNode detail) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final List<Entry> accepted = new CopyOnWriteArrayList<>();
  private final Set<String> refused = ConcurrentHashMap.newKeySet();

  private EventBridgeTestEndpoint(HttpServer server) {
    this.server = server;
  }

  public static EventBridgeTestEndpoint start() {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
      EventBridgeTestEndpoint endpoint = new EventBridgeTestEndpoint(server);
      server.createContext("/", endpoint::handle);
      server.start();
      return endpoint;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The real SDK client, with test credentials, pointed at this endpoint. */
  public EventBridgeClient client() {
    return EventBridgePublisher.client(
        "http://127.0.0.1:" + server.getAddress().getPort(), "eu-west-1", "test", "test");
  }

  /** Entries accepted so far, in the order they arrived. */
  public List<Entry> accepted() {
    return List.copyOf(accepted);
  }

  /** Refuses, until told otherwise, the entry of the event with {@code eventId}. */
  public void refuse(String eventId) {
    refused.add(eventId);
  }

  public void accept(String eventId) {
    refused.remove(eventId);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      if (!"POST".equals(exchange.getRequestMethod())
          || !"AWSEvents.PutEvents".equals(target)
          || authorization == null
          || !authorization.startsWith("AWS4-HMAC-SHA256")) {
        respond(exchange, 400, error("UnknownOperationException", "Unexpected request"));
        return;
      }
      JsonNode body = JSON.readTree(exchange.getRequestBody());
      JsonNode entries = body.path("Entries");
      if (!entries.isArray() || entries.isEmpty() || entries.size() > 10) {
        respond(exchange, 400, error("ValidationException", "1 to 10 entries"));
        return;
      }
      ObjectNode answer = JSON.createObjectNode();
      ArrayNode results = answer.putArray("Entries");
      int failed = 0;
      for (JsonNode entry : entries) {
        JsonNode detail = JSON.readTree(entry.path("Detail").asText("null"));
        if (entry.path("Source").asText().isEmpty()
            || entry.path("DetailType").asText().isEmpty()
            || !detail.isObject()) {
          respond(exchange, 400, error("ValidationException", "Source, DetailType, Detail"));
          return;
        }
        if (refused.contains(detail.path("id").asText())) {
          failed++;
          results.addObject().put("ErrorCode", "InternalFailure").put("ErrorMessage", "Refused");
        } else {
          accepted.add(
              new Entry(
                  entry.path("EventBusName").asText(),
                  entry.path("Source").asText(),
                  entry.path("DetailType").asText(),
                  detail));
          results.addObject().put("EventId", UUID.randomUUID().toString());
        }
      }
      answer.put("FailedEntryCount", failed);
      respond(exchange, 200, answer);
    }
  }

  private static ObjectNode error(String type, String message) {
    return JSON.createObjectNode().put("__type", type).put("message", message);
  }

  private static void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
    exchange.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
