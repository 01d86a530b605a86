package dev.puddle.functions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.api.RequestStats;
import java.io.IOException;
import java.io.PrintStream;
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

  private final String namespace;
  private final PrintStream out;
  private volatile boolean muted;

  RequestLog(String namespace, PrintStream out) {
    this.namespace = namespace;
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
    ObjectNode line = JSON.createObjectNode();
    ObjectNode aws = line.putObject("_aws");
    aws.put("Timestamp", timestampMillis);
    ObjectNode directive = aws.putArray("CloudWatchMetrics").addObject();
    directive.put("Namespace", namespace);
    directive.putArray("Dimensions").addArray().add("Operation");
    ArrayNode metrics = directive.putArray("Metrics");
    for (String[] metric : METRICS) {
      metrics.addObject().put("Name", metric[0]).put("Unit", metric[1]);
    }

    line.put("level", entry.status() >= 500 ? "ERROR" : "INFO");
    line.put("message", "request");
    line.put("requestId", entry.requestId());
    line.put("operation", entry.operation());
    line.put("functionGroup", entry.group());
    line.put("realm", entry.realm());
    line.put("warehouse", entry.warehouse());
    line.put("principal", entry.principal());
    line.put("status", entry.status());
    line.put("errorType", entry.errorType());
    line.put("latencyMs", round(entry.latencyMillis()));
    line.put("databaseMs", round(entry.stats().databaseMillis()));
    line.put("commitRetries", entry.stats().commitRetries());
    line.put("commitConflicts", entry.stats().commitConflicts());
    line.put("idempotency", entry.stats().idempotency());
    line.put("gzip", entry.gzipped());
    line.put("coldStart", entry.coldStart());

    line.put("Operation", entry.operation());
    line.put("Requests", 1);
    line.put("Errors", entry.status() >= 500 ? 1 : 0);
    line.put("ClientErrors", entry.status() >= 400 && entry.status() < 500 ? 1 : 0);
    line.put("Latency", round(entry.latencyMillis()));
    line.put("DatabaseTime", round(entry.stats().databaseMillis()));
    line.put("CommitRetries", entry.stats().commitRetries());
    line.put("CommitConflicts", entry.stats().commitConflicts());
    return line.toString();
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
