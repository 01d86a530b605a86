package dev.puddle.core.events;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.puddle.core.metastore.StoredEvent;
import java.time.Instant;
import java.util.Map;
import org.apache.iceberg.util.JsonUtil;

/**
 * An event of the feed as a CloudEvents 1.0 JSON envelope (structured mode), as the relay publishes
 * it: {@code id} is the proposal's {@code event-id} (what consumers dedupe on), {@code source}
 * names the feed ({@code puddle:<realm>/warehouses/<id>}, or {@code puddle:<realm>} for a
 * realm-wide management change), {@code type} is {@value #TYPE_PREFIX} and the operation type (or
 * the {@code x-puddle-…} custom type), {@code subject} the object's name, {@code time} the commit,
 * and {@code data} the proposal's {@code Event} as the query endpoint serves it.
 */
public final class CloudEvents {
  public static final String TYPE_PREFIX = "dev.puddle.catalog.";

  private CloudEvents() {}

  /** The envelope's {@code type}, e.g. {@code dev.puddle.catalog.update-table}. */
  public static String type(StoredEvent event) {
    String custom =
        JsonUtil.parse(event.operationJson(), node -> node.path("custom-type").asText());
    String operation =
        custom.isEmpty()
            ? JsonUtil.parse(event.operationJson(), node -> node.get("operation-type").asText())
            : custom;
    return TYPE_PREFIX + operation;
  }

  public static String source(StoredEvent event) {
    return event.warehouseId() == null
        ? "puddle:" + event.realm()
        : "puddle:" + event.realm() + "/warehouses/" + event.warehouseId();
  }

  /**
   * The object's dotted name (namespace levels, then its name), or null for a management change.
   */
  public static String subject(StoredEvent event) {
    if (event.namespace() == null) {
      return null;
    }
    String namespace = String.join(".", event.namespace().levels());
    return event.name() == null ? namespace : namespace + "." + event.name();
  }

  public static String envelope(StoredEvent event) {
    return JsonUtil.generate(
        gen -> {
          gen.writeStartObject();
          gen.writeStringField("specversion", "1.0");
          gen.writeStringField("id", event.eventId());
          gen.writeStringField("source", source(event));
          gen.writeStringField("type", type(event));
          String subject = subject(event);
          if (subject != null) {
            gen.writeStringField("subject", subject);
          }
          gen.writeStringField("time", Instant.ofEpochMilli(event.timestampMs()).toString());
          gen.writeStringField("datacontenttype", "application/json");
          gen.writeFieldName("data");
          writeData(event, gen);
          gen.writeEndObject();
        },
        false);
  }

  private static void writeData(StoredEvent event, JsonGenerator gen) throws java.io.IOException {
    gen.writeStartObject();
    gen.writeStringField("event-id", event.eventId());
    gen.writeStringField("request-id", event.requestId());
    gen.writeNumberField("request-event-count", event.requestEventCount());
    gen.writeNumberField("timestamp-ms", event.timestampMs());
    if (event.actorPrincipal() != null) {
      JsonUtil.writeStringMap(
          "actor", Map.of("principal", event.actorPrincipal(), "realm", event.actorRealm()), gen);
    }
    gen.writeFieldName("operation");
    gen.writeRawValue(event.operationJson());
    gen.writeEndObject();
  }
}
