package dev.puddle.cdk;

import static dev.puddle.contract.RequestMetric.CLIENT_ERRORS;
import static dev.puddle.contract.RequestMetric.COMMIT_CONFLICTS;
import static dev.puddle.contract.RequestMetric.COMMIT_RETRIES;
import static dev.puddle.contract.RequestMetric.ERRORS;
import static dev.puddle.contract.RequestMetric.LATENCY;

import dev.puddle.contract.FunctionGroup;
import dev.puddle.contract.RequestMetric;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.LogQueryVisualizationType;
import software.amazon.awscdk.services.cloudwatch.LogQueryWidget;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sns.subscriptions.EmailSubscription;
import software.constructs.Construct;

/**
 * What operators watch: alarms (a purge in the dead-letter queue, any function error, API 5xx
 * answers, a session pinned by RDS Proxy) sent to an SNS topic, and, unless {@code dashboard} is
 * off, a dashboard of latency and outcomes per function from the functions' embedded metrics,
 * per-operation latency and errors from their log lines (Logs Insights), errors, throttles,
 * database connections, pinned proxy sessions and the dead-letter queue's depth.
 */
final class Monitoring extends Construct {
  private static final Duration PERIOD = Duration.minutes(5);

  /** Per-operation latency from the request log lines; docs/operations.md shows the same query. */
  static final String LATENCY_BY_OPERATION =
      """
      filter message = "request"
      | stats count(*) as requests, pct(latencyMs, 50) as p50, pct(latencyMs, 99) as p99,
          avg(databaseMs) as databaseMs by operation
      | sort requests desc""";

  /** Per-operation 4xx and 5xx answers from the request log lines. */
  static final String ERRORS_BY_OPERATION =
      """
      filter message = "request" and status >= 400
      | stats count(*) as answers by operation, status, errorType
      | sort answers desc""";

  private final ITopic topic;

  Monitoring(
      Construct scope,
      String id,
      Settings settings,
      Collection<PuddleFunction> functions,
      PurgeQueues queues,
      PurgeQueues planning,
      EventRelayInfra events,
      CatalogHttpApi api,
      Metastore metastore) {
    super(scope, id);
    if (settings.alarmTopicArn() != null) {
      topic = Topic.fromTopicArn(this, "Alarms", settings.alarmTopicArn());
    } else {
      Topic created =
          Topic.Builder.create(this, "Alarms")
              .displayName("Puddle alarms")
              .enforceSsl(true)
              .build();
      if (settings.alarmEmail() != null) {
        created.addSubscription(new EmailSubscription(settings.alarmEmail()));
      }
      topic = created;
    }

    alarm(
        "DeadLetters",
        "A purge or table maintenance job failed for good: its job's last-error tells why (see"
            + " docs/runbooks/dead-letter-queue.md and docs/maintenance.md)",
        queues.deadLetters().metricApproximateNumberOfMessagesVisible(options("Maximum")),
        0);
    alarm(
        "PlanningDeadLetters",
        "A submitted scan plan failed for good: fetchPlanningResult answers failed with the"
            + " planning function's last error (see docs/scan-planning.md)",
        planning.deadLetters().metricApproximateNumberOfMessagesVisible(options("Maximum")),
        0);
    alarm(
        "EventRelayDeadLetters",
        "The event relay is stuck: events wait unpublished (see docs/events.md, operations)",
        events.deadLetters().metricApproximateNumberOfMessagesVisible(options("Maximum")),
        0);
    for (PuddleFunction function : functions) {
      alarm(
          "Errors-" + function.group().id(),
          "The " + function.group().id() + " function failed an invocation (error or timeout)",
          function.function().metricErrors(options("Sum")),
          0);
    }
    alarm(
        "Api5xx",
        "The HTTP API answered 5xx (a 503 is a request that ran out of time; see the logs)",
        api.api().metricServerError(options("Sum")),
        settings.api5xxAlarmThreshold() - 1);

    if (metastore.proxy() != null) {
      alarm(
          "ProxyPinnedSessions",
          "RDS Proxy pinned a session to a database connection: a statement or startup parameter"
              + " Puddle sends pins, so the proxy no longer bounds the database's connections (see"
              + " docs/operations.md, RDS Proxy and pinning)",
          proxyMetric(metastore, "DatabaseConnectionsCurrentlySessionPinned"),
          0);
    }
    if (!settings.dashboard()) {
      return;
    }

    // the functions behind the HTTP API: the ones that write request log lines
    List<PuddleFunction> serving = functions.stream().filter(f -> f.group().servesApi()).toList();
    List<IWidget> widgets = new ArrayList<>();
    widgets.add(graph("Latency p50 by function", requestMetric(settings, serving, LATENCY, "p50")));
    widgets.add(graph("Latency p99 by function", requestMetric(settings, serving, LATENCY, "p99")));
    widgets.add(
        graph("Requests by function", requestMetric(settings, serving, LATENCY, "SampleCount")));
    List<IMetric> outcomes = new ArrayList<>();
    outcomes.addAll(requestMetric(settings, serving, ERRORS, "Sum"));
    outcomes.addAll(requestMetric(settings, serving, CLIENT_ERRORS, "Sum"));
    outcomes.addAll(requestMetric(settings, serving, COMMIT_RETRIES, "Sum"));
    outcomes.addAll(requestMetric(settings, serving, COMMIT_CONFLICTS, "Sum"));
    widgets.add(graph("5xx, 4xx, commit retries and conflicts by function", outcomes));
    List<String> logGroups =
        serving.stream().map(f -> f.function().getLogGroup().getLogGroupName()).toList();
    widgets.add(
        logs(
            "Latency by operation (p50, p99 ms; from the log lines)",
            logGroups,
            LATENCY_BY_OPERATION));
    widgets.add(logs("Errors by operation (from the log lines)", logGroups, ERRORS_BY_OPERATION));
    widgets.add(
        graph(
            "HTTP API: 4xx and 5xx",
            List.of(
                api.api().metricClientError(options("Sum", "4xx")),
                api.api().metricServerError(options("Sum", "5xx")))));
    widgets.add(
        graph(
            "Function errors",
            functions.stream()
                .map(f -> (IMetric) f.function().metricErrors(options("Sum", f.group().id())))
                .toList()));
    widgets.add(
        graph(
            "Function throttles",
            functions.stream()
                .map(f -> (IMetric) f.function().metricThrottles(options("Sum", f.group().id())))
                .toList()));
    widgets.add(
        graph(
            "Database: connections and capacity",
            List.of(
                metastore
                    .cluster()
                    .metricDatabaseConnections(options("Maximum", "cluster connections")),
                metastore
                    .cluster()
                    .metric("ServerlessDatabaseCapacity", options("Maximum", "ACU")))));
    if (metastore.proxy() != null) {
      widgets.add(
          graph(
              "RDS Proxy: connections and pinned sessions",
              List.of(
                  labelled(proxyMetric(metastore, "ClientConnections")),
                  labelled(proxyMetric(metastore, "DatabaseConnections")),
                  labelled(proxyMetric(metastore, "DatabaseConnectionsCurrentlySessionPinned")))));
    }
    widgets.add(
        graph(
            "Purge dead-letter queue depth",
            List.of(
                queues
                    .deadLetters()
                    .metricApproximateNumberOfMessagesVisible(options("Maximum", "messages")))));
    Dashboard dashboard = Dashboard.Builder.create(this, "Dashboard").build();
    for (int i = 0; i < widgets.size(); i += 2) {
      dashboard.addWidgets(
          widgets.subList(i, Math.min(i + 2, widgets.size())).toArray(IWidget[]::new));
    }
  }

  private void alarm(String id, String description, Metric metric, double threshold) {
    Alarm alarm =
        Alarm.Builder.create(this, id)
            .alarmDescription(description)
            .metric(metric)
            .threshold(threshold)
            .evaluationPeriods(1)
            .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
            .treatMissingData(TreatMissingData.NOT_BREACHING)
            .build();
    alarm.addAlarmAction(new SnsAction(topic));
  }

  /**
   * The functions' embedded metric ({@link RequestMetric}) of each function that emits it, by the
   * one dimension the log lines give it.
   */
  private static List<IMetric> requestMetric(
      Settings settings, List<PuddleFunction> functions, RequestMetric metric, String statistic) {
    List<IMetric> metrics = new ArrayList<>();
    for (PuddleFunction function : functions) {
      FunctionGroup group = function.group().functionGroup().orElseThrow();
      if (metric.emittedBy(group)) {
        metrics.add(
            Metric.Builder.create()
                .namespace(settings.metricsNamespace())
                .metricName(metric.metricName())
                .dimensionsMap(Map.of(RequestMetric.DIMENSION, RequestMetric.dimensionValue(group)))
                .statistic(statistic)
                .period(PERIOD)
                .label(RequestMetric.dimensionValue(group) + " " + metric.metricName())
                .build());
      }
    }
    return metrics;
  }

  private static IWidget logs(String title, List<String> logGroups, String query) {
    return LogQueryWidget.Builder.create()
        .title(title)
        .logGroupNames(logGroups)
        .queryString(query)
        .view(LogQueryVisualizationType.TABLE)
        .width(12)
        .height(6)
        .build();
  }

  private static Metric proxyMetric(Metastore metastore, String name) {
    return Metric.Builder.create()
        .namespace("AWS/RDS")
        .metricName(name)
        .dimensionsMap(Map.of("ProxyName", metastore.proxy().getDbProxyName()))
        .statistic("Maximum")
        .period(PERIOD)
        .build();
  }

  /**
   * A panel's line named after its metric (an alarm's metric has no label: a label would turn it
   * into a metric-math alarm).
   */
  private static IMetric labelled(Metric metric) {
    return metric.with(MetricOptions.builder().label(metric.getMetricName()).build());
  }

  private static MetricOptions options(String statistic) {
    return MetricOptions.builder().statistic(statistic).period(PERIOD).build();
  }

  private static MetricOptions options(String statistic, String label) {
    return MetricOptions.builder().statistic(statistic).period(PERIOD).label(label).build();
  }

  private static IWidget graph(String title, List<IMetric> metrics) {
    return GraphWidget.Builder.create().title(title).left(metrics).width(12).height(6).build();
  }
}
