package dev.puddle.cdk;

import static dev.puddle.cdk.Synthesized.getAtt;
import static dev.puddle.cdk.Synthesized.list;
import static dev.puddle.cdk.Synthesized.map;
import static dev.puddle.cdk.Synthesized.ref;
import static dev.puddle.cdk.Synthesized.strings;
import static dev.puddle.cdk.Synthesized.text;
import static dev.puddle.contract.EnvironmentVariable.AUTH_ISSUERS;
import static dev.puddle.contract.EnvironmentVariable.DB_AUTH;
import static dev.puddle.contract.EnvironmentVariable.DB_MODE;
import static dev.puddle.contract.EnvironmentVariable.DB_URL;
import static dev.puddle.contract.EnvironmentVariable.DB_USER;
import static dev.puddle.contract.EnvironmentVariable.DEFAULT_WAREHOUSE_LOCATION;
import static dev.puddle.contract.EnvironmentVariable.FUNCTION_GROUP;
import static dev.puddle.contract.EnvironmentVariable.PLANNING_SWEEP_STALE_MINUTES;
import static dev.puddle.contract.EnvironmentVariable.PURGE_MAX_RECEIVES;
import static dev.puddle.contract.EnvironmentVariable.PURGE_SWEEP_STALE_MINUTES;
import static dev.puddle.contract.EnvironmentVariable.ROOT_CREDENTIAL_SECRET_ARN;
import static dev.puddle.contract.EnvironmentVariable.TOKEN_ISSUER;
import static dev.puddle.contract.EnvironmentVariable.TOKEN_SIGNING_SECRET_ARN;
import static dev.puddle.contract.EnvironmentVariable.VENDING_ROLE_ARN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.contract.EventRelayBatching;
import dev.puddle.contract.FunctionGroup;
import dev.puddle.contract.Route;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Assertions on the synthesized templates of both profiles: what the issue and the design promise
 * of a deployment. Each profile is synthesized once for the whole class.
 */
class PuddleStackTest {
  private static Synthesized lean;
  private static Synthesized standard;

  @BeforeAll
  static void synthesize() {
    lean = Synthesized.of(Map.of("profile", "lean"));
    standard = Synthesized.of(Map.of("profile", "standard"));
  }

  static Stream<Synthesized> profiles() {
    return Stream.of(lean, standard);
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void everyHttpRouteOfTheRouteTableIsOneApiRoute(Synthesized s) {
    List<String> expected =
        Arrays.stream(Route.values())
            .filter(
                r ->
                    EnumSet.of(
                            FunctionGroup.READ,
                            FunctionGroup.WRITE,
                            FunctionGroup.SIGN,
                            FunctionGroup.TOKEN,
                            FunctionGroup.ADMIN)
                        .contains(r.group()))
            .map(Route::routeKey)
            .collect(Collectors.toCollection(ArrayList::new));
    expected.add("$default");
    List<String> routeKeys =
        s.resources("AWS::ApiGatewayV2::Route").values().stream()
            .map(r -> (String) map(r.get("Properties")).get("RouteKey"))
            .toList();

    assertThat(routeKeys).hasSize(expected.size()).containsExactlyInAnyOrderElementsOf(expected);
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void eachRouteReachesTheLiveAliasOfItsGroupsFunction(Synthesized s) {
    for (Map<String, Object> route : s.resources("AWS::ApiGatewayV2::Route").values()) {
      Map<String, Object> properties = map(route.get("Properties"));
      String routeKey = (String) properties.get("RouteKey");
      FunctionGroup group =
          routeKey.equals("$default")
              ? FunctionGroup.READ
              : Route.forRouteKey(routeKey).orElseThrow().group();

      assertThat(functionBehind(s, properties))
          .as("%s", routeKey)
          .isEqualTo(s.function(Group.serving(group)));
    }
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void theCatchAllRouteGoesToTheReadFunctionWithoutAnAuthorizer(Synthesized s) {
    List<Map<String, Object>> catchAll =
        s.resources("AWS::ApiGatewayV2::Route").values().stream()
            .map(r -> map(r.get("Properties")))
            .filter(p -> "$default".equals(p.get("RouteKey")))
            .toList();
    assertThat(catchAll).hasSize(1);

    assertThat(functionBehind(s, catchAll.get(0)))
        .isEqualTo(s.function(Group.serving(FunctionGroup.READ)));
    assertThat(catchAll.get(0).get("AuthorizationType")).isIn(null, "NONE");
  }

  /** The function a route's integration invokes, through its live alias. */
  private static String functionBehind(Synthesized s, Map<String, Object> routeProperties) {
    String integration =
        text(routeProperties.get("Target")).replaceAll(".*Ref=([A-Za-z0-9]+).*", "$1");
    Map<String, Object> integrationProperties = s.properties(integration);
    assertThat(integrationProperties.get("PayloadFormatVersion")).isEqualTo("2.0");
    Map<String, Object> aliasProperties =
        s.properties(ref(integrationProperties.get("IntegrationUri")));
    assertThat(aliasProperties.get("Name")).isEqualTo("live");
    return ref(aliasProperties.get("FunctionName"));
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void httpFunctionsRunSnapStartVersionsBehindTheirAliasTheOthersDoNot(Synthesized s) {
    for (Group group : Group.values()) {
      String function = s.function(group);
      Map<String, Object> properties = s.properties(function);
      assertThat(properties.get("Runtime")).isEqualTo("java25");
      assertThat(properties.get("Handler")).isEqualTo(group.handler());
      if (group.servesApi()) {
        assertThat(map(properties.get("SnapStart")).get("ApplyOn")).isEqualTo("PublishedVersions");
        Map<String, Object> alias = aliasOf(s, function);
        String version = getAtt(alias.get("FunctionVersion"));
        assertThat(s.resource(version).get("Type")).isEqualTo("AWS::Lambda::Version");
        assertThat(ref(s.properties(version).get("FunctionName"))).isEqualTo(function);
      } else {
        assertThat(properties).doesNotContainKey("SnapStart");
      }
    }
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void aKeepAliveScheduleInvokesEverySnapStartAlias(Synthesized s) {
    Set<String> aliases =
        Arrays.stream(Group.values())
            .filter(Group::servesApi)
            .map(g -> aliasId(s, s.function(g)))
            .collect(Collectors.toSet());
    Map<String, Object> rule =
        s.resources("AWS::Events::Rule").values().stream()
            .map(r -> map(r.get("Properties")))
            .filter(p -> text(p.get("ScheduleExpression")).contains("days"))
            .findFirst()
            .orElseThrow();
    Set<String> targets =
        list(rule.get("Targets")).stream()
            .map(t -> ref(map(t).get("Arn")))
            .collect(Collectors.toSet());

    assertThat(rule.get("ScheduleExpression")).isEqualTo("rate(4 days)");
    assertThat(targets).isEqualTo(aliases);
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void readOnlyReadsObjectsWriteOnlyMetadataAndOnlyPurgeAndSignDeleteBroadly(Synthesized s) {
    // server-side scan planning reads manifests: the read function gets objects, nothing else
    assertThat(s.statements(s.role(Group.READ)))
        .filteredOn(st -> strings(st.get("Action")).stream().anyMatch(a -> a.startsWith("s3:")))
        .singleElement()
        .satisfies(st -> assertThat(strings(st.get("Action"))).containsExactly("s3:GetObject"));
    for (Group group : Group.values()) {
      List<Map<String, Object>> deletes = s.allowing(s.role(group), "s3:DeleteObject");
      switch (group) {
        case SIGN -> {
          // what engines do with their tables' files, on the bucket's objects and nothing more
          assertThat(
                  s.statements(s.role(group)).stream()
                      .filter(st -> "Allow".equals(st.get("Effect")))
                      .flatMap(st -> strings(st.get("Action")).stream())
                      .filter(a -> a.startsWith("s3:"))
                      .toList())
              .containsExactlyInAnyOrder(
                  "s3:GetObject",
                  "s3:PutObject",
                  "s3:DeleteObject",
                  "s3:AbortMultipartUpload",
                  "s3:ListBucket");
          assertThat(s.allowing(s.role(group), "s3:PutObject"))
              .singleElement()
              .satisfies(st -> assertThat(text(st.get("Resource"))).endsWith("/*]]}"));
          assertThat(s.allowing(s.role(group), "sts:AssumeRole")).isEmpty();
        }
        case PURGE -> {
          assertThat(deletes)
              .singleElement()
              .satisfies(st -> assertThat(text(st.get("Resource"))).endsWith("/*]]}"));
          // maintenance commits its expiries: metadata files only
          assertThat(s.allowing(s.role(group), "s3:PutObject"))
              .singleElement()
              .satisfies(st -> assertThat(text(st.get("Resource"))).endsWith("/*/metadata/*]]}"));
        }
        case WRITE -> {
          assertThat(deletes)
              .singleElement()
              .satisfies(st -> assertThat(text(st.get("Resource"))).endsWith("/*/metadata/*]]}"));
          assertThat(s.allowing(s.role(group), "s3:PutObject"))
              .singleElement()
              .satisfies(st -> assertThat(text(st.get("Resource"))).endsWith("/*/metadata/*]]}"));
        }
        case EXPORT -> {
          assertThat(deletes).as("%s deletes nothing", group).isEmpty();
          assertThat(s.allowing(s.role(group), "s3:PutObject"))
              .singleElement()
              .satisfies(
                  st -> assertThat(text(st.get("Resource"))).endsWith("/_puddle/export/*]]}"));
        }
        default -> {
          assertThat(deletes).as("%s deletes nothing", group).isEmpty();
          assertThat(s.allowing(s.role(group), "s3:PutObject"))
              .as("%s writes nothing", group)
              .isEmpty();
        }
      }
    }
  }

  /** The logical id of the role engines' vended credentials are sessions of. */
  private static String vendingRole(Synthesized s) {
    return s.resources("AWS::IAM::Role").keySet().stream()
        .filter(id -> id.startsWith("VendingRole"))
        .findFirst()
        .orElseThrow();
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void maintenanceDeletesOnlyWhereTablesFilesCanBeRunsOnTheSweepAndAlarmsWhenAJobFails(
      Synthesized s) {
    // purge and maintenance run in the purge function. Tables' locations lie anywhere in the
    // warehouse's location, the bucket's root, but its control folder: its one allowed delete is
    // of the warehouse bucket's objects, never the bucket itself or another bucket, never by a
    // wildcard action
    List<Map<String, Object>> purge = s.statements(s.role(Group.PURGE));
    // ... except the control folder, the catalog export's, denied to every role that deletes
    // tables' files (purge and maintenance, the signer, engines' vended role)
    for (String role : List.of(s.role(Group.PURGE), s.role(Group.SIGN), vendingRole(s))) {
      assertThat(s.statements(role))
          .as(role)
          .anySatisfy(
              st -> {
                assertThat(st.get("Effect")).isEqualTo("Deny");
                assertThat(strings(st.get("Action")))
                    .containsExactlyInAnyOrder("s3:PutObject", "s3:DeleteObject");
                assertThat(text(st.get("Resource"))).contains("/_puddle/*");
              });
    }
    assertThat(s.allowing(s.role(Group.PURGE), "s3:DeleteObject"))
        .singleElement()
        .satisfies(
            st -> {
              assertThat(st.get("Effect")).isEqualTo("Allow");
              assertThat(strings(st.get("Action")))
                  .containsExactly("s3:GetObject", "s3:DeleteObject");
              assertThat(text(st.get("Resource"))).contains("WarehouseBucket").endsWith("/*]]}");
            });
    assertThat(purge)
        .allSatisfy(
            st -> {
              assertThat(strings(st.get("Action")))
                  .noneMatch(
                      a ->
                          a.equals("*")
                              || a.equals("s3:*")
                              || a.startsWith("s3:Delete") && !a.equals("s3:DeleteObject"));
              if (strings(st.get("Action")).stream().anyMatch(a -> a.startsWith("s3:"))) {
                assertThat(text(st.get("Resource"))).contains("WarehouseBucket");
              }
            });
    // the sweep's schedule starts the scheduled runs and re-sends lost ones
    assertThat(
            s.resources("AWS::Events::Rule").values().stream()
                .map(r -> map(r.get("Properties")))
                .filter(
                    p ->
                        s.function(Group.SWEEP)
                            .equals(getAtt(map(list(p.get("Targets")).get(0)).get("Arn")))))
        .singleElement()
        .satisfies(p -> assertThat(text(p.get("ScheduleExpression"))).startsWith("rate("));
    // a job failing for good lands in the dead-letter queue, whose depth alarms; so does any
    // failed invocation of the purge function
    List<Map<String, Object>> alarms =
        s.resources("AWS::CloudWatch::Alarm").values().stream()
            .map(a -> map(a.get("Properties")))
            .toList();
    assertThat(alarms)
        .anySatisfy(
            a -> {
              assertThat(a.get("MetricName")).isEqualTo("ApproximateNumberOfMessagesVisible");
              assertThat(text(a.get("Dimensions"))).contains("PurgeQueuesDeadLetters");
              assertThat(text(a.get("AlarmDescription"))).contains("maintenance");
            });
    assertThat(alarms)
        .anySatisfy(
            a -> {
              assertThat(a.get("MetricName")).isEqualTo("Errors");
              assertThat(ref(map(list(a.get("Dimensions")).get(0)).get("Value")))
                  .isEqualTo(s.function(Group.PURGE));
            });
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void onlyTheTokenFunctionReadsTheSigningKey(Synthesized s) {
    String secret =
        s.resources("AWS::SecretsManager::Secret").entrySet().stream()
            .filter(e -> e.getKey().startsWith("TokenSigningKey"))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow();
    for (Group group : Group.values()) {
      boolean reads =
          s.allowing(s.role(group), "secretsmanager:GetSecretValue").stream()
              .anyMatch(st -> secret.equals(ref(st.get("Resource"))));
      assertThat(reads).as("%s reads the signing key", group).isEqualTo(group == Group.TOKEN);
    }
    assertThat(s.environment(s.function(Group.TOKEN)).get(TOKEN_SIGNING_SECRET_ARN.key()))
        .isEqualTo(Map.of("Ref", secret));
  }

  /**
   * No private key in the template: the secret starts as an empty JWK set, which the token function
   * fills on its first token, and only it may write the secret.
   */
  @ParameterizedTest
  @MethodSource("profiles")
  void theSigningSecretStartsEmptyAndOnlyTheTokenFunctionMayWriteIt(Synthesized s) {
    String secret =
        s.resources("AWS::SecretsManager::Secret").keySet().stream()
            .filter(id -> id.startsWith("TokenSigningKey"))
            .findFirst()
            .orElseThrow();
    assertThat(s.properties(secret))
        .containsEntry("SecretString", "{\"keys\":[]}")
        .doesNotContainKey("GenerateSecretString");
    for (Group group : Group.values()) {
      List<Map<String, Object>> writes = s.allowing(s.role(group), "secretsmanager:PutSecretValue");
      if (group == Group.TOKEN) {
        assertThat(writes)
            .singleElement()
            .satisfies(
                st -> {
                  assertThat(ref(st.get("Resource"))).isEqualTo(secret);
                  assertThat(strings(st.get("Action")))
                      .containsExactly("secretsmanager:PutSecretValue");
                });
      } else {
        assertThat(writes).as("%s writes a secret", group).isEmpty();
      }
    }
  }

  /**
   * Root's credential: Secrets Manager generates its secret at deploy time (no value in the
   * template), only the migrate function may read it and is told where it is, and the deployer
   * finds it in the stack's outputs, next to the catalog's URI.
   */
  @ParameterizedTest
  @MethodSource("profiles")
  void onlyTheMigrateFunctionReadsRootsGeneratedCredentialWhoseArnIsAnOutput(Synthesized s) {
    String secret =
        s.resources("AWS::SecretsManager::Secret").keySet().stream()
            .filter(id -> id.startsWith("RootCredential"))
            .findFirst()
            .orElseThrow();
    Map<String, Object> generated = map(s.properties(secret).get("GenerateSecretString"));
    assertThat(s.properties(secret)).doesNotContainKey("SecretString");
    assertThat(generated)
        .containsEntry("SecretStringTemplate", "{\"clientId\":\"root\"}")
        .containsEntry("GenerateStringKey", "clientSecret")
        .containsEntry("ExcludePunctuation", true);
    assertThat((Number) generated.get("PasswordLength"))
        .satisfies(length -> assertThat(length.intValue()).isGreaterThanOrEqualTo(40));
    for (Group group : Group.values()) {
      boolean reads =
          s.statements(s.role(group)).stream()
              .filter(st -> "Allow".equals(st.get("Effect")))
              .anyMatch(st -> text(st.get("Resource")).contains(secret));
      assertThat(reads).as("%s reads root's credential", group).isEqualTo(group == Group.MIGRATE);
      assertThat(s.environment(s.function(group)).get(ROOT_CREDENTIAL_SECRET_ARN.key()))
          .as("%s is told where root's credential is", group)
          .isEqualTo(group == Group.MIGRATE ? Map.of("Ref", secret) : null);
    }
    Map<String, Object> outputs = map(s.json.get("Outputs"));
    assertThat(map(outputs.get("RootCredentialSecretArn")).get("Value"))
        .isEqualTo(Map.of("Ref", secret));
    String api = s.resources("AWS::ApiGatewayV2::Api").keySet().iterator().next();
    assertThat(text(map(outputs.get("CatalogUri")).get("Value"))).contains(api);
  }

  /**
   * Authentication is mandatory: every catalog function accepts Puddle's own tokens, all of the
   * same issuer (the API's URL), the one the token function issues them with; no external issuer is
   * trusted unless the context names one.
   */
  @ParameterizedTest
  @MethodSource("profiles")
  void everyCatalogFunctionTrustsTheIssuerTheTokenFunctionIssuesWith(Synthesized s) {
    Object issuer = s.environment(s.function(Group.TOKEN)).get(TOKEN_ISSUER.key());
    String api = s.resources("AWS::ApiGatewayV2::Api").keySet().iterator().next();
    assertThat(text(issuer)).as("the API's URL").contains(api);
    for (Group group : Group.values()) {
      Map<String, Object> environment = s.environment(s.function(group));
      assertThat(environment.get(TOKEN_ISSUER.key()))
          .as(group.id())
          .isEqualTo(group.servesApi() ? issuer : null);
      assertThat(environment).doesNotContainKey(AUTH_ISSUERS.key());
    }
  }

  /**
   * The management API (warehouses, principals, roles, grants, job listings) lives in the
   * metastore: the admin function reaches no object, role or secret besides the metastore's login,
   * and no queue but the purge queue, where it sends the maintenance runs it is asked to start, and
   * the event relay's, which its changes nudge.
   */
  @ParameterizedTest
  @MethodSource("profiles")
  void theAdminFunctionReachesOnlyTheMetastoreItsLogsAndThePurgeQueue(Synthesized s) {
    List<String> actions =
        s.statements(s.role(Group.ADMIN)).stream()
            .filter(st -> "Allow".equals(st.get("Effect")))
            .flatMap(st -> strings(st.get("Action")).stream())
            .toList();
    assertThat(actions)
        .isNotEmpty()
        .allMatch(
            action ->
                action.startsWith("logs:")
                    || action.startsWith("rds-db:")
                    || action.startsWith("rds-data:")
                    || action.equals("secretsmanager:GetSecretValue")
                    || action.equals("secretsmanager:DescribeSecret")
                    || action.startsWith("sqs:SendMessage")
                    || action.equals("sqs:GetQueueAttributes")
                    || action.equals("sqs:GetQueueUrl"),
            "logs, the metastore and its login, the purge queue and the event relay's queue");
    assertThat(s.allowing(s.role(Group.ADMIN), "sqs:SendMessage"))
        .hasSize(2)
        .allMatch(
            statement ->
                getAtt(statement.get("Resource")).startsWith("EventsQueue")
                    || text(statement.get("Resource")).contains("PurgeQueues"),
            "the purge queue and the event relay's queue only");
  }

  /**
   * Only the handlers that read {@code PUDDLE_FUNCTION_GROUP} are told one: the catalog functions,
   * which serve the routes of their group, and the migration function, which checks it; the purge
   * function and the sweep, whose handlers never read it, carry none.
   */
  @ParameterizedTest
  @MethodSource("profiles")
  void theFunctionGroupIsSetWhereItsHandlerReadsItAndNowhereElse(Synthesized s) {
    Map<String, List<Object>> groups = new HashMap<>();
    for (Map.Entry<String, Map<String, Object>> function :
        s.resources("AWS::Lambda::Function").entrySet()) {
      String handler = (String) map(function.getValue().get("Properties")).get("Handler");
      if (handler.startsWith("dev.puddle.functions.")) {
        groups
            .computeIfAbsent(handler, h -> new ArrayList<>())
            .add(s.environment(function.getKey()).getOrDefault(FUNCTION_GROUP.key(), "(unset)"));
      }
    }

    assertThat(groups)
        .containsOnlyKeys(
            Group.READ.handler(),
            Group.MIGRATE.handler(),
            Group.PURGE.handler(),
            Group.PLAN.handler(),
            Group.SWEEP.handler(),
            Group.RELAY.handler(),
            Group.EVENT_SWEEP.handler(),
            Group.EXPORT.handler(),
            Group.REBUILD.handler());
    assertThat(groups.get(Group.PLAN.handler())).containsExactly("(unset)");
    assertThat(groups.get(Group.READ.handler()))
        .containsExactlyInAnyOrder("read", "write", "sign", "token", "admin");
    assertThat(groups.get(Group.MIGRATE.handler())).containsExactly("migrate");
    assertThat(groups.get(Group.PURGE.handler())).containsExactly("(unset)");
    assertThat(groups.get(Group.SWEEP.handler())).containsExactly("(unset)");
    assertThat(groups.get(Group.RELAY.handler())).containsExactly("(unset)");
    assertThat(groups.get(Group.EVENT_SWEEP.handler())).containsExactly("(unset)");
    assertThat(groups.get(Group.EXPORT.handler())).containsExactly("(unset)");
    assertThat(groups.get(Group.REBUILD.handler())).containsExactly("(unset)");
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void onlyTheFunctionsThatQueueJobsMaySendAndOnlyReadAndWriteMayAssumeTheVendingRole(
      Synthesized s) {
    Set<Group> senders = EnumSet.noneOf(Group.class);
    Set<Group> assumers = EnumSet.noneOf(Group.class);
    for (Group group : Group.values()) {
      if (!s.allowing(s.role(group), "sqs:SendMessage").isEmpty()) {
        senders.add(group);
      }
      if (!s.allowing(s.role(group), "sts:AssumeRole").isEmpty()) {
        assumers.add(group);
      }
    }
    // the purge queue's senders (the admin function starts maintenance runs on demand), the
    // planning queue's (the read function submits scans), and those that nudge the event relay
    assertThat(senders)
        .containsExactlyInAnyOrder(
            Group.READ,
            Group.WRITE,
            Group.PURGE,
            Group.PLAN,
            Group.SWEEP,
            Group.ADMIN,
            Group.EVENT_SWEEP);
    assertThat(assumers).containsExactlyInAnyOrder(Group.READ, Group.WRITE);

    String vending =
        s.resources("AWS::IAM::Role").keySet().stream()
            .filter(id -> id.startsWith("VendingRole"))
            .findFirst()
            .orElseThrow();
    Set<String> trusted = new HashSet<>();
    for (Object statement :
        list(map(s.properties(vending).get("AssumeRolePolicyDocument")).get("Statement"))) {
      assertThat(strings(map(statement).get("Action")))
          .contains("sts:AssumeRole", "sts:TagSession");
      trusted.add(getAtt(map(map(statement).get("Principal")).get("AWS")));
    }
    assertThat(trusted).containsExactlyInAnyOrder(s.role(Group.READ), s.role(Group.WRITE));
    for (Group group : List.of(Group.READ, Group.WRITE)) {
      assertThat(s.environment(s.function(group)).get(VENDING_ROLE_ARN.key()))
          .isEqualTo(Map.of("Fn::GetAtt", List.of(vending, "Arn")));
    }
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void thePurgeQueueOutwaitsSixPurgeTimeoutsAndGivesUpToTheDeadLetterQueue(Synthesized s) {
    int timeout = ((Number) s.properties(s.function(Group.PURGE)).get("Timeout")).intValue();
    Map<String, Object> queue = null;
    String deadLetters = null;
    for (Map.Entry<String, Map<String, Object>> q : s.resources("AWS::SQS::Queue").entrySet()) {
      if (!q.getKey().startsWith("PurgeQueues")) {
        continue; // the event relay's queues
      }
      Map<String, Object> properties = map(q.getValue().get("Properties"));
      if (properties.containsKey("RedrivePolicy")) {
        queue = properties;
      } else {
        deadLetters = q.getKey();
      }
    }
    assertThat(queue).isNotNull();
    assertThat(((Number) queue.get("VisibilityTimeout")).intValue())
        .isGreaterThanOrEqualTo(6 * timeout);
    Map<String, Object> redrive = map(queue.get("RedrivePolicy"));
    assertThat(redrive.get("maxReceiveCount")).isEqualTo(5);
    assertThat(getAtt(redrive.get("deadLetterTargetArn"))).isEqualTo(deadLetters);
    assertThat(s.environment(s.function(Group.PURGE)).get(PURGE_MAX_RECEIVES.key())).isEqualTo("5");
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void theSweepSendsALostPlanAgainSoonAfterItsRedeliveryAndALostPurgeAfterAllOfThem(Synthesized s) {
    Map<String, Integer> visibility = new HashMap<>();
    for (Map.Entry<String, Map<String, Object>> q : s.resources("AWS::SQS::Queue").entrySet()) {
      Map<String, Object> properties = map(q.getValue().get("Properties"));
      String construct = q.getKey().replaceAll("Queues.*", "");
      if (List.of("Purge", "Planning").contains(construct)
          && properties.containsKey("RedrivePolicy")) {
        visibility.put(construct, ((Number) properties.get("VisibilityTimeout")).intValue());
      }
    }
    Map<String, Object> sweep = s.environment(s.function(Group.SWEEP));

    // the planning queue's visibility timeout, after which SQS redelivers, plus two minutes
    assertThat(sweep.get(PLANNING_SWEEP_STALE_MINUTES.key()))
        .isEqualTo(Integer.toString(visibility.get("Planning") / 60 + 2));
    // a plan lives an hour: its lost message is sent again well within it
    assertThat(Integer.parseInt((String) sweep.get(PLANNING_SWEEP_STALE_MINUTES.key())))
        .isLessThan(15);
    // every receive of a purge message, visibility timeout apart, comes before the sweep's
    assertThat(Integer.parseInt((String) sweep.get(PURGE_SWEEP_STALE_MINUTES.key())))
        .isGreaterThan(visibility.get("Purge") / 60 * 5);
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void theRelayGathersNudgesForOneInvocationAsTheTwinDoes(Synthesized s) {
    Map<String, Object> mapping =
        map(
            s.resources("AWS::Lambda::EventSourceMapping").values().stream()
                .filter(
                    m ->
                        s.function(Group.RELAY)
                            .equals(ref(map(m.get("Properties")).get("FunctionName"))))
                .findFirst()
                .orElseThrow()
                .get("Properties"));

    assertThat(mapping.get("BatchSize")).isEqualTo(EventRelayBatching.BATCH_SIZE);
    assertThat(mapping.get("MaximumBatchingWindowInSeconds"))
        .isEqualTo((int) EventRelayBatching.WINDOW.toSeconds());
    assertThat(list(mapping.get("FunctionResponseTypes")))
        .containsExactly("ReportBatchItemFailures");
    assertThat(map(mapping.get("ScalingConfig")).get("MaximumConcurrency")).isEqualTo(2);
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void thePurgeFunctionReportsBatchItemFailuresWithBoundedConcurrency(Synthesized s) {
    Map<String, Object> mapping =
        map(
            s.resources("AWS::Lambda::EventSourceMapping").values().stream()
                .filter(
                    m ->
                        s.function(Group.PURGE)
                            .equals(ref(map(m.get("Properties")).get("FunctionName"))))
                .findFirst()
                .orElseThrow()
                .get("Properties"));

    assertThat(ref(mapping.get("FunctionName"))).isEqualTo(s.function(Group.PURGE));
    assertThat(list(mapping.get("FunctionResponseTypes")))
        .containsExactly("ReportBatchItemFailures");
    assertThat(map(mapping.get("ScalingConfig")).get("MaximumConcurrency")).isEqualTo(5);
    Map<String, Object> sweep =
        s.resources("AWS::Events::Rule").values().stream()
            .map(r -> map(r.get("Properties")))
            .filter(
                p ->
                    s.function(Group.SWEEP)
                        .equals(getAtt(map(list(p.get("Targets")).get(0)).get("Arn"))))
            .findFirst()
            .orElseThrow();
    // the lean profile's sweep leaves the cluster paused most of the day
    assertThat(sweep.get("ScheduleExpression"))
        .isEqualTo(s.settings.lean() ? "rate(6 hours)" : "rate(5 minutes)");
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void alarmsWatchTheDeadLetterQueueEveryFunctionAndApi5xxAndNotifyTheTopic(Synthesized s) {
    List<Map<String, Object>> alarms =
        s.resources("AWS::CloudWatch::Alarm").values().stream()
            .map(a -> map(a.get("Properties")))
            .toList();
    assertThat(alarms)
        .allSatisfy(a -> assertThat(text(a.get("AlarmActions"))).contains("MonitoringAlarms"));
    assertThat(alarms)
        .anySatisfy(
            a -> {
              assertThat(a.get("MetricName")).isEqualTo("ApproximateNumberOfMessagesVisible");
              assertThat(a.get("Threshold")).isEqualTo(0);
              assertThat(a.get("ComparisonOperator")).isEqualTo("GreaterThanThreshold");
              assertThat(text(a.get("Dimensions"))).contains("PurgeQueuesDeadLetters");
            });
    Set<String> watched =
        alarms.stream()
            .filter(
                a ->
                    "Errors".equals(a.get("MetricName")) && "AWS/Lambda".equals(a.get("Namespace")))
            .map(a -> ref(map(list(a.get("Dimensions")).get(0)).get("Value")))
            .collect(Collectors.toSet());
    assertThat(watched)
        .isEqualTo(Arrays.stream(Group.values()).map(s::function).collect(Collectors.toSet()));
    assertThat(alarms).anySatisfy(a -> assertThat(a.get("MetricName")).isEqualTo("5xx"));
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void migrationsRunThroughTheMigrateFunctionBeforeAnyAliasOrTheStageMoves(Synthesized s) {
    Map.Entry<String, Map<String, Object>> migrations =
        s.resources(PuddleStack.MIGRATIONS_TYPE).entrySet().iterator().next();
    Map<String, Object> properties = map(migrations.getValue().get("Properties"));
    assertThat(getAtt(properties.get("ServiceToken"))).isEqualTo(s.function(Group.MIGRATE));
    assertThat((String) properties.get("Artifact")).matches("[0-9a-f]{64}");

    for (Map<String, Object> alias : s.resources("AWS::Lambda::Alias").values()) {
      assertThat(list(alias.get("DependsOn"))).contains(migrations.getKey());
    }
    for (Map<String, Object> stage : s.resources("AWS::ApiGatewayV2::Stage").values()) {
      assertThat(list(stage.get("DependsOn"))).contains(migrations.getKey());
    }
    assertThat(s.environment(s.function(Group.MIGRATE)).get(DEFAULT_WAREHOUSE_LOCATION.key()))
        .asString()
        .contains("s3://");
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void theWarehouseBucketIsEncryptedPrivateAndTlsOnly(Synthesized s) {
    Map<String, Object> bucket =
        map(s.resources("AWS::S3::Bucket").values().iterator().next().get("Properties"));
    assertThat(text(bucket.get("BucketEncryption"))).contains("AES256");
    assertThat(map(bucket.get("PublicAccessBlockConfiguration")))
        .containsEntry("BlockPublicAcls", true)
        .containsEntry("BlockPublicPolicy", true)
        .containsEntry("IgnorePublicAcls", true)
        .containsEntry("RestrictPublicBuckets", true);
    String policy = text(s.resources("AWS::S3::BucketPolicy").values().iterator().next());
    assertThat(policy).contains("aws:SecureTransport=false").contains("Effect=Deny");
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void theStageThrottlesAndLogsAccessInJsonWithoutHeaders(Synthesized s) {
    Map<String, Object> stage =
        map(s.resources("AWS::ApiGatewayV2::Stage").values().iterator().next().get("Properties"));
    Map<String, Object> throttling = map(stage.get("DefaultRouteSettings"));
    assertThat(throttling)
        .containsEntry("ThrottlingRateLimit", 200)
        .containsEntry("ThrottlingBurstLimit", 400);
    String format = (String) map(stage.get("AccessLogSettings")).get("Format");
    assertThat(format)
        .startsWith("{")
        .contains("$context.requestId")
        .doesNotContainIgnoringCase("header");
  }

  @Test
  void leanFunctionsUseTheDataApiOutsideAnyVpcOnAClusterThatPausesAtZero() {
    for (Group group : Group.values()) {
      String function = lean.function(group);
      assertThat(lean.properties(function)).doesNotContainKey("VpcConfig");
      assertThat(lean.environment(function)).containsEntry(DB_MODE.key(), "data-api");
      assertThat(lean.allowing(lean.role(group), "rds-data:ExecuteStatement")).hasSize(1);
      assertThat(lean.allowing(lean.role(group), "rds-db:connect")).isEmpty();
    }
    assertThat(lean.resources("AWS::RDS::DBProxy")).isEmpty();
    Map<String, Object> cluster =
        map(lean.resources("AWS::RDS::DBCluster").values().iterator().next().get("Properties"));
    assertThat(cluster.get("EnableHttpEndpoint")).isEqualTo(true);
    assertThat(map(cluster.get("ServerlessV2ScalingConfiguration")))
        .containsEntry("MinCapacity", 0)
        .containsEntry("SecondsUntilAutoPause", 300);
    assertThat(cluster.get("EngineVersion")).asString().startsWith("17.");
  }

  @Test
  void standardFunctionsConnectThroughAProxyRequiringTlsAndIamAuth() {
    Map<String, Object> proxy =
        map(standard.resources("AWS::RDS::DBProxy").values().iterator().next().get("Properties"));
    assertThat(proxy.get("RequireTLS")).isEqualTo(true);
    assertThat(map(list(proxy.get("Auth")).get(0)).get("IAMAuth")).isEqualTo("REQUIRED");
    for (Group group : Group.values()) {
      String function = standard.function(group);
      assertThat(standard.properties(function)).containsKey("VpcConfig");
      assertThat(standard.environment(function))
          .containsEntry(DB_MODE.key(), "jdbc")
          .containsEntry(DB_AUTH.key(), "iam")
          .containsEntry(DB_USER.key(), Metastore.USER);
      assertThat(text(standard.environment(function).get(DB_URL.key())))
          .contains("sslmode=verify-full");
      assertThat(standard.allowing(standard.role(group), "rds-db:connect")).hasSize(1);
      assertThat(standard.allowing(standard.role(group), "rds-data:ExecuteStatement")).isEmpty();
    }
    Map<String, Object> cluster =
        map(standard.resources("AWS::RDS::DBCluster").values().iterator().next().get("Properties"));
    assertThat(cluster).doesNotContainKey("EnableHttpEndpoint");
    Set<String> endpoints =
        standard.resources("AWS::EC2::VPCEndpoint").values().stream()
            .map(e -> text(map(e.get("Properties")).get("ServiceName")))
            .map(n -> n.replaceAll("[^a-z0-9.]", ""))
            .map(n -> n.substring(n.lastIndexOf('.') + 1))
            .collect(Collectors.toSet());
    assertThat(endpoints).contains("s3", "sqs", "secretsmanager", "sts");
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void cdkNagFindsNothingUnsuppressed(Synthesized s) {
    assertThat(s.nagErrors).isEmpty();
    assertThat(s.nagWarnings).isEmpty();
  }

  private static Map<String, Object> aliasOf(Synthesized s, String function) {
    return s.properties(aliasId(s, function));
  }

  private static String aliasId(Synthesized s, String function) {
    return s.resources("AWS::Lambda::Alias").entrySet().stream()
        .filter(e -> function.equals(ref(map(e.getValue().get("Properties")).get("FunctionName"))))
        .map(Map.Entry::getKey)
        .findFirst()
        .orElseThrow();
  }
}
