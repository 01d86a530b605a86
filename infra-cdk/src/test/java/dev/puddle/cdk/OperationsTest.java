package dev.puddle.cdk;

import static dev.puddle.cdk.Synthesized.list;
import static dev.puddle.cdk.Synthesized.map;
import static dev.puddle.cdk.Synthesized.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.FunctionGroup;
import dev.puddle.contract.RequestMetric;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What docs/operations.md promises of a deployment: a failover target in a second availability zone
 * behind the proxy (standard), backups kept for the configured days, a restore from a snapshot, the
 * bucket's versioning with its expiry of noncurrent versions, and monitoring whose every alarm and
 * panel reads a metric the functions emit, at a bounded number of metrics.
 */
class OperationsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Synthesized lean() {
    return Synthesized.of(Map.of("profile", "lean"));
  }

  private static Synthesized standard() {
    return Synthesized.of(Map.of("profile", "standard"));
  }

  @Test
  void standardRunsAReaderInAnotherZoneThatScalesWithTheWriterLeanRunsOneInstance() {
    List<Map<String, Object>> instances = instances(standard());
    assertThat(instances).hasSize(2);
    Set<String> zones =
        instances.stream().map(i -> text(i.get("AvailabilityZone"))).collect(Collectors.toSet());
    assertThat(zones).hasSize(2).doesNotContain("null");
    // scaleWithWriter: promotion tier 0 or 1, so the promoted reader has the writer's capacity
    assertThat(instances)
        .anySatisfy(i -> assertThat(((Number) i.get("PromotionTier")).intValue()).isLessThan(2));
    // the proxy targets the cluster, not an instance, so it follows the promoted writer
    Map<String, Object> target =
        map(
            standard()
                .resources("AWS::RDS::DBProxyTargetGroup")
                .values()
                .iterator()
                .next()
                .get("Properties"));
    assertThat(target)
        .containsKey("DBClusterIdentifiers")
        .doesNotContainKey("DBInstanceIdentifiers");

    assertThat(instances(lean())).hasSize(1);
    assertThat(instances(Synthesized.of(Map.of("profile", "standard", "auroraReaders", "2"))))
        .hasSize(3);
  }

  @Test
  void backupsAreKeptSevenDaysByDefaultAndTheClusterIsDeletionProtected() {
    for (Synthesized s : List.of(lean(), standard())) {
      Map<String, Object> cluster = cluster(s);
      assertThat(cluster.get("BackupRetentionPeriod")).isEqualTo(7);
      assertThat(cluster.get("DeletionProtection")).isEqualTo(true);
      assertThat(cluster).doesNotContainKey("SnapshotIdentifier");
      assertThat(s.resources("AWS::RDS::DBCluster").values().iterator().next())
          .containsEntry("DeletionPolicy", "Snapshot");
    }
    assertThat(
            cluster(Synthesized.of(Map.of("profile", "lean", "backupRetentionDays", "35")))
                .get("BackupRetentionPeriod"))
        .isEqualTo(35);
  }

  @Test
  void aRestoredClusterComesFromTheSnapshotWithANewLoginBehindTheSameProxy() {
    String snapshot = "arn:aws:rds:eu-west-1:123456789012:cluster-snapshot:puddle-restored";
    Synthesized s = Synthesized.of(Map.of("profile", "standard", "restoreSnapshot", snapshot));
    Map<String, Object> cluster = cluster(s);
    assertThat(cluster.get("SnapshotIdentifier")).isEqualTo(snapshot);
    assertThat(cluster.get("BackupRetentionPeriod")).isEqualTo(7);
    assertThat(cluster.get("DeletionProtection")).isEqualTo(true);
    assertThat(cluster.get("EnableIAMDatabaseAuthentication")).isEqualTo(true);
    assertThat(text(cluster.get("MasterUserPassword"))).contains("SnapshotSecret");
    assertThat(instances(s)).hasSize(2);
    assertThat(s.resources("AWS::RDS::DBProxy")).hasSize(1);
    // one login secret, the snapshot's new one, instead of the new cluster's
    assertThat(s.resources("AWS::SecretsManager::Secret"))
        .hasSameSizeAs(standard().resources("AWS::SecretsManager::Secret"));
    assertThat(s.nagErrors).isEmpty();
    assertThat(s.nagWarnings).isEmpty();
  }

  @Test
  void aVersionedBucketExpiresNoncurrentVersionsAnUnversionedOneHasNoRule() {
    Map<String, Object> plain = bucket(lean());
    assertThat(plain).doesNotContainKey("VersioningConfiguration");
    assertThat(plain).doesNotContainKey("LifecycleConfiguration");

    Map<String, Object> versioned =
        bucket(
            Synthesized.of(
                Map.of(
                    "profile", "lean", "bucketVersioning", "true", "bucketNoncurrentDays", "9")));
    assertThat(map(versioned.get("VersioningConfiguration"))).containsEntry("Status", "Enabled");
    Map<String, Object> rule =
        map(list(map(versioned.get("LifecycleConfiguration")).get("Rules")).get(0));
    assertThat(rule)
        .containsEntry("Status", "Enabled")
        .containsEntry("ExpiredObjectDeleteMarker", true);
    assertThat(map(rule.get("NoncurrentVersionExpiration"))).containsEntry("NoncurrentDays", 9);
  }

  @Test
  void theProxyPinningASessionRaisesAnAlarmWhereThereIsAProxy() {
    assertThat(alarms(standard()))
        .filteredOn(a -> "DatabaseConnectionsCurrentlySessionPinned".equals(a.get("MetricName")))
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.get("Namespace")).isEqualTo("AWS/RDS");
              assertThat(a.get("Threshold")).isEqualTo(0);
              assertThat(a.get("ComparisonOperator")).isEqualTo("GreaterThanThreshold");
              assertThat(text(a.get("Dimensions"))).contains("ProxyName");
              assertThat(text(a.get("AlarmActions"))).contains("MonitoringAlarms");
            });
    assertThat(alarms(lean()))
        .noneMatch(a -> "DatabaseConnectionsCurrentlySessionPinned".equals(a.get("MetricName")));
  }

  @Test
  void leanHasNoDashboardUnlessAskedStandardHasOne() {
    assertThat(lean().resources("AWS::CloudWatch::Dashboard")).isEmpty();
    assertThat(standard().resources("AWS::CloudWatch::Dashboard")).hasSize(1);
    assertThat(
            Synthesized.of(Map.of("profile", "lean", "dashboard", "true"))
                .resources("AWS::CloudWatch::Dashboard"))
        .hasSize(1);
    assertThat(
            Synthesized.of(Map.of("profile", "standard", "dashboard", "false"))
                .resources("AWS::CloudWatch::Dashboard"))
        .isEmpty();
  }

  @Test
  void everyPanelAndAlarmOfPuddlesNamespaceReadsAMetricTheFunctionsEmit() throws IOException {
    Set<String> emitted = new java.util.HashSet<>();
    for (FunctionGroup group : FunctionGroup.values()) {
      for (RequestMetric metric : RequestMetric.values()) {
        if (metric.emittedBy(group)) {
          emitted.add(metric.metricName() + "/" + RequestMetric.dimensionValue(group));
        }
      }
    }
    for (Synthesized s :
        List.of(standard(), Synthesized.of(Map.of("profile", "lean", "dashboard", "true")))) {
      List<String> read = new ArrayList<>();
      JsonNode dashboard = dashboard(s);
      int logQueries = 0;
      for (JsonNode widget : dashboard.get("widgets")) {
        JsonNode properties = widget.get("properties");
        if (properties.has("query")) {
          logQueries++;
          assertThat(properties.get("query").asText())
              .contains("SOURCE")
              .contains("operation")
              .contains("filter message = \"request\"");
          continue;
        }
        for (JsonNode metric : properties.path("metrics")) {
          if (metric.get(0).asText().equals("Puddle")) {
            // [namespace, name, dimension, value, {options}]
            assertThat(metric.get(2).asText()).isEqualTo(RequestMetric.DIMENSION);
            read.add(metric.get(1).asText() + "/" + metric.get(3).asText());
          }
        }
      }
      assertThat(logQueries).isEqualTo(2);
      assertThat(read).isNotEmpty();
      assertThat(emitted).containsAll(read);
      // every metric the functions serving the API emit is on the dashboard
      Set<String> served = new java.util.HashSet<>();
      for (Group group : Group.values()) {
        if (group.servesApi()) {
          for (RequestMetric metric : RequestMetric.values()) {
            FunctionGroup g = group.functionGroup().orElseThrow();
            if (metric.emittedBy(g)) {
              served.add(metric.metricName() + "/" + RequestMetric.dimensionValue(g));
            }
          }
        }
      }
      assertThat(read).containsAll(served);
      assertThat(served).hasSize(RequestMetric.billed());
      for (Map<String, Object> alarm : alarms(s)) {
        if ("Puddle".equals(alarm.get("Namespace"))) {
          assertThat(emitted)
              .contains(
                  alarm.get("MetricName")
                      + "/"
                      + map(list(alarm.get("Dimensions")).get(0)).get("Value"));
        }
      }
    }
    assertThat(Arrays.stream(Group.values()).filter(Group::servesApi).count()).isEqualTo(5);
  }

  private static List<Map<String, Object>> instances(Synthesized s) {
    return s.resources("AWS::RDS::DBInstance").values().stream()
        .map(i -> map(i.get("Properties")))
        .toList();
  }

  private static Map<String, Object> cluster(Synthesized s) {
    return map(s.resources("AWS::RDS::DBCluster").values().iterator().next().get("Properties"));
  }

  private static Map<String, Object> bucket(Synthesized s) {
    return s.resources("AWS::S3::Bucket").entrySet().stream()
        .filter(b -> b.getKey().startsWith("Warehouse"))
        .map(b -> map(b.getValue().get("Properties")))
        .findFirst()
        .orElseThrow();
  }

  private static List<Map<String, Object>> alarms(Synthesized s) {
    return s.resources("AWS::CloudWatch::Alarm").values().stream()
        .map(a -> map(a.get("Properties")))
        .toList();
  }

  /** The dashboard's body, its references replaced by a placeholder. */
  private static JsonNode dashboard(Synthesized s) throws IOException {
    Object body =
        map(s.resources("AWS::CloudWatch::Dashboard").values().iterator().next().get("Properties"))
            .get("DashboardBody");
    StringBuilder json = new StringBuilder();
    if (body instanceof String plain) {
      json.append(plain);
    } else {
      for (Object part : list(list(map(body).get("Fn::Join")).get(1))) {
        json.append(part instanceof String p ? p : "TOKEN");
      }
    }
    return JSON.readTree(json.toString());
  }
}
