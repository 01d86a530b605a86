package dev.puddle.cdk;

import static dev.puddle.cdk.Synthesized.list;
import static dev.puddle.cdk.Synthesized.map;
import static dev.puddle.cdk.Synthesized.text;
import static dev.puddle.contract.EnvironmentVariable.AUTH_ISSUERS;
import static dev.puddle.contract.EnvironmentVariable.DEFAULT_WAREHOUSE_LOCATION;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.Route;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The standard profile with the other choices its context parameters offer: a NAT gateway instead
 * of interface endpoints, an existing bucket, the java21 runtime, an external identity provider's
 * JWT authorizer, an existing alarm topic, reserved concurrency and Aurora 16.
 */
class OptionsTest {
  private static Synthesized s;

  @BeforeAll
  static void synthesize() {
    s =
        Synthesized.of(
            Map.ofEntries(
                Map.entry("profile", "standard"),
                Map.entry("egress", "nat"),
                Map.entry("bucketName", "existing-warehouse"),
                Map.entry("runtime", "java21"),
                Map.entry("jwtIssuer", "https://idp.example.com/"),
                Map.entry("jwtAudience", "puddle,engines"),
                Map.entry("jwtJwksUri", "https://idp.example.com/keys"),
                Map.entry("jwtPrincipalClaim", "email"),
                Map.entry("realm", "acme"),
                Map.entry("alarmTopicArn", "arn:aws:sns:eu-west-1:123456789012:ops"),
                Map.entry("reservedConcurrency.write", "20"),
                Map.entry("memory.read", "2048"),
                Map.entry("auroraVersion", "16")));
  }

  @Test
  void authenticatedRoutesCarryTheJwtAuthorizerAndTheProbesDoNot() {
    Map<String, Object> authorizer =
        map(
            s.resources("AWS::ApiGatewayV2::Authorizer")
                .values()
                .iterator()
                .next()
                .get("Properties"));
    assertThat(authorizer.get("AuthorizerType")).isEqualTo("JWT");
    assertThat(map(authorizer.get("JwtConfiguration")))
        .containsEntry("Issuer", "https://idp.example.com/")
        .containsEntry("Audience", List.of("puddle", "engines"));
    for (Map<String, Object> resource : s.resources("AWS::ApiGatewayV2::Route").values()) {
      Map<String, Object> route = map(resource.get("Properties"));
      String routeKey = (String) route.get("RouteKey");
      // the catch-all answers only 404 and 405, the same to anyone
      boolean authenticated =
          !routeKey.equals("$default")
              && Route.forRouteKey(routeKey).orElseThrow().requiresAuthentication();
      assertThat(route.get("AuthorizationType"))
          .as(routeKey)
          .isEqualTo(authenticated ? "JWT" : "NONE");
    }
  }

  /**
   * The functions verify the IdP's tokens themselves, as docs/authentication.md's
   * PUDDLE_AUTH_ISSUERS says.
   */
  @Test
  void theCatalogFunctionsTrustTheSameIssuerBoundToTheStacksRealm() throws Exception {
    for (Group group : Group.values()) {
      Object issuers = s.environment(s.function(group)).get(AUTH_ISSUERS.key());
      if (!group.servesApi()) {
        assertThat(issuers).as(group.id()).isNull();
        continue;
      }
      assertThat(new ObjectMapper().readTree((String) issuers))
          .as(group.id())
          .isEqualTo(
              new ObjectMapper()
                  .readTree(
                      """
                      [{"issuer": "https://idp.example.com/",
                        "jwks-uri": "https://idp.example.com/keys",
                        "audiences": ["puddle", "engines"],
                        "principal-claim": "email",
                        "realm": "acme"}]"""));
    }
  }

  @Test
  void theChosenRuntimeMemoryAndReservedConcurrencyApply() {
    for (Group group : Group.values()) {
      assertThat(s.properties(s.function(group)).get("Runtime")).isEqualTo("java21");
    }
    assertThat(s.properties(s.function(Group.READ)).get("MemorySize")).isEqualTo(2048);
    assertThat(s.properties(s.function(Group.WRITE)).get("ReservedConcurrentExecutions"))
        .isEqualTo(20);
    assertThat(s.properties(s.function(Group.READ)))
        .doesNotContainKey("ReservedConcurrentExecutions");
    Map<String, Object> cluster =
        map(s.resources("AWS::RDS::DBCluster").values().iterator().next().get("Properties"));
    assertThat(cluster.get("EngineVersion")).asString().startsWith("16.");
  }

  @Test
  void anExistingBucketIsReferencedNotCreatedAndGrantsNameIt() {
    // the web console's files are the only bucket the stack creates
    assertThat(s.resources("AWS::S3::Bucket").keySet())
        .allMatch(id -> id.startsWith("ConsoleFiles"));
    assertThat(text(s.allowing(s.role(Group.PURGE), "s3:DeleteObject").get(0).get("Resource")))
        .contains(":s3:::existing-warehouse/*");
    assertThat(s.environment(s.function(Group.MIGRATE)))
        .containsEntry(DEFAULT_WAREHOUSE_LOCATION.key(), "s3://existing-warehouse");
  }

  @Test
  void aNatGatewayReplacesTheInterfaceEndpoints() {
    assertThat(s.resources("AWS::EC2::NatGateway")).hasSize(1);
    assertThat(s.resources("AWS::EC2::VPCEndpoint").values())
        .singleElement()
        .satisfies(e -> assertThat(text(e)).contains(".s3"));
  }

  @Test
  void alarmsNotifyTheExistingTopic() {
    assertThat(s.resources("AWS::SNS::Topic")).isEmpty();
    for (Map<String, Object> alarm : s.resources("AWS::CloudWatch::Alarm").values()) {
      assertThat(list(map(alarm.get("Properties")).get("AlarmActions")))
          .containsExactly("arn:aws:sns:eu-west-1:123456789012:ops");
    }
  }

  @Test
  void cdkNagFindsNothingUnsuppressed() {
    assertThat(s.nagErrors).isEmpty();
    assertThat(s.nagWarnings).isEmpty();
  }
}
