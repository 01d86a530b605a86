package dev.puddle.functions;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.api.RequestStats;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * One JSON line per request on standard output, which Lambda sends to CloudWatch Logs. The line is
 * also in CloudWatch Embedded Metric Format: CloudWatch turns its {@code _aws} section into metrics
 * per operation (requests, errors, latency, commit retries and conflicts, database time) without
 * any API call, and keeps the other fields searchable in Logs Insights. It names the request, never
 * its content: no headers, bodies or credentials.
 */
final class RequestLog {
  /** What one request did. */
  record Entry(
      String requestId,
      String operation,
      String group,
      String realm,
      String warehouse,
      String principal,
      int status,
      String errorType,
      double latencyMillis,
      boolean gzipped,
      boolean coldStart,
      RequestStats stats) {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String[]> METRICS =
      List.of(
          new String[] {"Requests", "Count"},
          new String[] {"Errors", "Count"},
          new String[] {"ClientErrors", "Count"},
          new String[] {"Latency", "Milliseconds"},
          new String[] {"DatabaseTime", "Milliseconds"},
          new String[] {"CommitRetries", "Count"},
          new String[] {"CommitConflicts", "Count"});

  private final String directives;
  private final PrintStream out;
  private volatile boolean muted;

  RequestLog(String namespace, PrintStream out) {
    this.directives = directives(namespace);
    this.out = out;
  }

  void write(Entry entry) {
    String line = line(entry, System.currentTimeMillis());
    if (!muted) {
      out.println(line);
    }
  }

  /**
   * While muted, lines are built but not written: priming's canned requests must not show up in the
   * logs or count in the metrics.
   */
  void mute(boolean muted) {
    this.muted = muted;
  }

  String line(Entry entry, long timestampMillis) {
    // written field by field rather than built as a tree: the line is on every request's path
    StringWriter text = new StringWriter(1024);
    try (JsonGenerator line = JSON.createGenerator(text)) {
      line.writeStartObject();
      line.writeObjectFieldStart("_aws");
      line.writeNumberField("Timestamp", timestampMillis);
      line.writeFieldName("CloudWatchMetrics");
      line.writeRawValue(directives);
      line.writeEndObject();

      line.writeStringField("level", entry.status() >= 500 ? "ERROR" : "INFO");
      line.writeStringField("message", "request");
      line.writeStringField("requestId", entry.requestId());
      line.writeStringField("operation", entry.operation());
      line.writeStringField("functionGroup", entry.group());
      line.writeStringField("realm", entry.realm());
      line.writeStringField("warehouse", entry.warehouse());
      line.writeStringField("principal", entry.principal());
      line.writeNumberField("status", entry.status());
      line.writeStringField("errorType", entry.errorType());
      line.writeNumberField("latencyMs", round(entry.latencyMillis()));
      line.writeNumberField("databaseMs", round(entry.stats().databaseMillis()));
      line.writeNumberField("commitRetries", entry.stats().commitRetries());
      line.writeNumberField("commitConflicts", entry.stats().commitConflicts());
      line.writeStringField("idempotency", entry.stats().idempotency());
      line.writeBooleanField("gzip", entry.gzipped());
      line.writeBooleanField("coldStart", entry.coldStart());

      line.writeStringField("Operation", entry.operation());
      line.writeNumberField("Requests", 1);
      line.writeNumberField("Errors", entry.status() >= 500 ? 1 : 0);
      line.writeNumberField("ClientErrors", entry.status() >= 400 && entry.status() < 500 ? 1 : 0);
      line.writeNumberField("Latency", round(entry.latencyMillis()));
      line.writeNumberField("DatabaseTime", round(entry.stats().databaseMillis()));
      line.writeNumberField("CommitRetries", entry.stats().commitRetries());
      line.writeNumberField("CommitConflicts", entry.stats().commitConflicts());
      line.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the request log line", e);
    }
    return text.toString();
  }

  /** The metric directives, the same on every line: which fields are metrics of which unit. */
  private static String directives(String namespace) {
    ArrayNode directives = JSON.createArrayNode();
    ObjectNode directive = directives.addObject();
    directive.put("Namespace", namespace);
    directive.putArray("Dimensions").addArray().add("Operation");
    ArrayNode metrics = directive.putArray("Metrics");
    for (String[] metric : METRICS) {
      metrics.addObject().put("Name", metric[0]).put("Unit", metric[1]);
    }
    return directives.toString();
  }

  /** The {@code type} of an Iceberg error body, if the body is one. */
  static String errorType(String body) {
    if (body == null || !body.startsWith("{\"error\"")) {
      return null;
    }
    try {
      JsonNode type = JSON.readTree(body).at("/error/type");
      return type.isMissingNode() ? null : type.asText();
    } catch (IOException e) {
      return null;
    }
  }

  private static double round(double millis) {
    return Math.round(millis * 100) / 100.0;
  }
}
