package dev.puddle.contract;

import java.util.Locale;

/**
 * The metrics each request log line carries in CloudWatch Embedded Metric Format, and their one
 * dimension, {@link #DIMENSION}: the function group. What the functions emit and what the stack's
 * alarms and dashboard read, decided here once.
 *
 * <p>CloudWatch bills every metric (name and dimension values) in each hour it is emitted, $0.30 a
 * month when emitted around the clock. Per operation (28 operations, 7 metrics) a catalog in
 * constant use paid about $59 a month; per function group it pays for at most {@link #billed()}
 * metrics. Per-operation detail stays in the log line's fields ({@code operation}, {@code
 * latencyMs}, {@code databaseMs}, {@code status}), for Logs Insights (docs/operations.md).
 */
public enum RequestMetric {
  /** Milliseconds from event to response; its sample count is the number of requests. */
  LATENCY("Latency", "Milliseconds", false),
  /** Answers with a 5xx status. */
  ERRORS("Errors", "Count", false),
  /** Answers with a 4xx status. */
  CLIENT_ERRORS("ClientErrors", "Count", false),
  /** Commit attempts after the first: server-side retries. */
  COMMIT_RETRIES("CommitRetries", "Count", true),
  /** Commit attempts that found the table moved by another commit. */
  COMMIT_CONFLICTS("CommitConflicts", "Count", true);

  /** The metrics' only dimension; its values are the function groups' lower-case names. */
  public static final String DIMENSION = "FunctionGroup";

  private final String metricName;
  private final String unit;
  private final boolean commitsOnly;

  RequestMetric(String metricName, String unit, boolean commitsOnly) {
    this.metricName = metricName;
    this.unit = unit;
    this.commitsOnly = commitsOnly;
  }

  /** The CloudWatch metric name. */
  public String metricName() {
    return metricName;
  }

  /** The CloudWatch unit. */
  public String unit() {
    return unit;
  }

  /** Whether a function of this group emits the metric: commit counts only where commits run. */
  public boolean emittedBy(FunctionGroup group) {
    return !commitsOnly || group == FunctionGroup.WRITE;
  }

  /** The dimension value of a group. */
  public static String dimensionValue(FunctionGroup group) {
    return group.name().toLowerCase(Locale.ROOT);
  }

  /** How many metrics the groups that serve HTTP routes emit at most, all together. */
  public static int billed() {
    int count = 0;
    for (FunctionGroup group : FunctionGroup.values()) {
      if (group == FunctionGroup.MIGRATE) {
        continue;
      }
      for (RequestMetric metric : values()) {
        count += metric.emittedBy(group) ? 1 : 0;
      }
    }
    return count;
  }
}
