package dev.puddle.cdk;

import dev.puddle.contract.FunctionGroup;
import dev.puddle.contract.Route;
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
 * answers) sent to an SNS topic, and a dashboard of per-operation latency from the functions'
 * embedded metrics, errors, throttles, database connections, pinned proxy sessions and the
 * dead-letter queue's depth.
 */
final class Monitoring extends Construct {
  private static final Duration PERIOD = Duration.minutes(5);

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

    List<IMetric> database = new ArrayList<>();
    database.add(
        metastore.cluster().metricDatabaseConnections(options("Maximum", "cluster connections")));
    database.add(metastore.cluster().metricServerlessDatabaseCapacity(options("Maximum", "ACU")));
    List<IWidget> widgets = new ArrayList<>();
    widgets.add(graph("Read latency p50 by operation", latency(settings, true, "p50")));
    widgets.add(graph("Read latency p99 by operation", latency(settings, true, "p99")));
    widgets.add(graph("Write latency p50 by operation", latency(settings, false, "p50")));
    widgets.add(graph("Write latency p99 by operation", latency(settings, false, "p99")));
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
    widgets.add(graph("Database: connections and capacity", database));
    if (metastore.proxy() != null) {
      widgets.add(
          graph(
              "RDS Proxy: connections and pinned sessions",
              List.of(
                  proxyMetric(metastore, "ClientConnections"),
                  proxyMetric(metastore, "DatabaseConnections"),
                  proxyMetric(metastore, "DatabaseConnectionsCurrentlySessionPinned"))));
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
   * The functions' embedded latency metric (RequestLog: the namespace, dimension Operation) of
   * every HTTP route of the read function, or of every other HTTP route.
   */
  private static List<IMetric> latency(Settings settings, boolean reads, String statistic) {
    return CatalogHttpApi.httpRoutes().stream()
        .filter(r -> (r.group() == FunctionGroup.READ) == reads)
        .map(r -> (IMetric) operationMetric(settings, r, statistic))
        .toList();
  }

  private static Metric operationMetric(Settings settings, Route route, String statistic) {
    return Metric.Builder.create()
        .namespace(settings.metricsNamespace())
        .metricName("Latency")
        .dimensionsMap(Map.of("Operation", route.operationId()))
        .statistic(statistic)
        .period(PERIOD)
        .label(route.operationId())
        .build();
  }

  private static Metric proxyMetric(Metastore metastore, String name) {
    return Metric.Builder.create()
        .namespace("AWS/RDS")
        .metricName(name)
        .dimensionsMap(Map.of("ProxyName", metastore.proxy().getDbProxyName()))
        .statistic("Maximum")
        .period(PERIOD)
        .label(name)
        .build();
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
