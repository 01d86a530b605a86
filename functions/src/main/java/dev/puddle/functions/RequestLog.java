package dev.puddle.functions;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.FunctionGroup;
import dev.puddle.contract.RequestMetric;
import dev.puddle.core.api.RequestStats;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One line per request. On Lambda it is a JSON line on standard output, which Lambda sends to
 * CloudWatch Logs, in CloudWatch Embedded Metric Format: CloudWatch turns its {@code _aws} section
 * into metrics per function group ({@link RequestMetric}: latency, errors, commit retries and
 * conflicts) without any API call, and keeps the other fields, the operation among them, searchable
 * in Logs Insights. The local twin writes a short line for people instead ({@link #text}), or the
 * same JSON on request. Either names the request, never its content: no headers, bodies or
 * credentials.
 */
public final class RequestLog {
  /** What one request did. */
  record Entry(
      String requestId,
      String method,
      String path,
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

  /** How an entry reads as a line. */
  interface Format {
    String line(Entry entry, long timestampMillis);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Format format;
  private final PrintStream out;
  private volatile boolean muted;

  private RequestLog(Format format, PrintStream out) {
    this.format = format;
    this.out = out;
  }

  /** Embedded Metric Format lines, their metrics in {@code namespace}. */
  RequestLog(String namespace, PrintStream out) {
    this(new EmbeddedMetrics(namespace), out);
  }

  /** Embedded Metric Format JSON lines, as on Lambda, their metrics in {@code namespace}. */
  public static RequestLog embeddedMetrics(String namespace, PrintStream out) {
    return new RequestLog(namespace, out);
  }

  /**
   * A short line for people at a terminal: time (in {@code zone}), method, path, status (and the
   * error type), latency and principal, e.g. {@code 14:02:31.207 GET /v1/default/namespaces 200 3.1
   * ms root}.
   */
  public static RequestLog text(PrintStream out, ZoneId zone) {
    return new RequestLog(new Text(zone), out);
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
    return format.line(entry, timestampMillis);
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

  /** The line for people. */
  private record Text(DateTimeFormatter time) implements Format {
    Text(ZoneId zone) {
      this(DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT).withZone(zone));
    }

    @Override
    public String line(Entry entry, long timestampMillis) {
      return String.format(
          Locale.ROOT,
          "%s %s %s %d%s %.1f ms %s",
          time.format(Instant.ofEpochMilli(timestampMillis)),
          entry.method(),
          entry.path(),
          entry.status(),
          entry.errorType() == null ? "" : " " + entry.errorType(),
          entry.latencyMillis(),
          entry.principal() == null ? "-" : entry.principal());
    }
  }

  /**
   * The JSON line in CloudWatch Embedded Metric Format: the {@link RequestMetric}s with the
   * function group as their one dimension, so that what CloudWatch bills stays bounded however many
   * operations are used; the operation is a field of the line, not a dimension.
   */
  private static final class EmbeddedMetrics implements Format {
    private final String namespace;
    private final Map<String, String> directives = new ConcurrentHashMap<>();

    EmbeddedMetrics(String namespace) {
      this.namespace = namespace;
    }

    @Override
    public String line(Entry entry, long timestampMillis) {
      List<RequestMetric> metrics = metrics(entry.group());
      // written field by field rather than built as a tree: the line is on every request's path
      StringWriter text = new StringWriter(1024);
      try (JsonGenerator line = JSON.createGenerator(text)) {
        line.writeStartObject();
        line.writeObjectFieldStart("_aws");
        line.writeNumberField("Timestamp", timestampMillis);
        line.writeFieldName("CloudWatchMetrics");
        line.writeRawValue(directives.computeIfAbsent(entry.group(), g -> directives(metrics)));
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

        line.writeStringField(RequestMetric.DIMENSION, entry.group());
        for (RequestMetric metric : metrics) {
          line.writeNumberField(metric.metricName(), value(metric, entry));
        }
        line.writeEndObject();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write the request log line", e);
      }
      return text.toString();
    }

    /** The metrics a function of these groups emits ("all": the twin's one function). */
    private static List<RequestMetric> metrics(String group) {
      if ("all".equals(group)) {
        return List.of(RequestMetric.values());
      }
      FunctionGroup functionGroup = FunctionGroup.valueOf(group.toUpperCase(Locale.ROOT));
      return Arrays.stream(RequestMetric.values()).filter(m -> m.emittedBy(functionGroup)).toList();
    }

    private static double value(RequestMetric metric, Entry entry) {
      return switch (metric) {
        case LATENCY -> round(entry.latencyMillis());
        case ERRORS -> entry.status() >= 500 ? 1 : 0;
        case CLIENT_ERRORS -> entry.status() >= 400 && entry.status() < 500 ? 1 : 0;
        case COMMIT_RETRIES -> entry.stats().commitRetries();
        case COMMIT_CONFLICTS -> entry.stats().commitConflicts();
      };
    }

    /**
     * The metric directives, the same on every line of a group: which fields are metrics. Written
     * with the generator, as the line is: a tree's {@code toString} would set up databind's
     * serialization on a cold start's first request.
     */
    private String directives(List<RequestMetric> metrics) {
      StringWriter text = new StringWriter(256);
      try (JsonGenerator json = JSON.createGenerator(text)) {
        json.writeStartArray();
        json.writeStartObject();
        json.writeStringField("Namespace", namespace);
        json.writeArrayFieldStart("Dimensions");
        json.writeStartArray();
        json.writeString(RequestMetric.DIMENSION);
        json.writeEndArray();
        json.writeEndArray();
        json.writeArrayFieldStart("Metrics");
        for (RequestMetric metric : metrics) {
          json.writeStartObject();
          json.writeStringField("Name", metric.metricName());
          json.writeStringField("Unit", metric.unit());
          json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeEndArray();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write the metric directives", e);
      }
      return text.toString();
    }

    private static double round(double millis) {
      return Math.round(millis * 100) / 100.0;
    }
  }
}
