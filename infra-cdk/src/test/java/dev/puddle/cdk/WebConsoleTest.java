package dev.puddle.cdk;

import static dev.puddle.cdk.Synthesized.list;
import static dev.puddle.cdk.Synthesized.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.contract.ConsoleSite;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;

/**
 * The web console's part of the template: a private bucket only the distribution reads, the files
 * uploaded under ui/, the twin's security headers, and the API behind the same origin uncached.
 */
class WebConsoleTest {
  /** CloudFront's managed policies, by their fixed ids. */
  private static final String CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";

  private static final String ALL_VIEWER_EXCEPT_HOST_HEADER =
      "b689b0a8-53d0-40ab-baf2-68738e2966ac";

  private static Synthesized s;

  @BeforeAll
  static void synthesize() {
    s = Synthesized.of(Map.of("profile", "lean"));
  }

  @Test
  void theFilesAreInAPrivateBucketThatOnlyTheDistributionReads() {
    String bucket = logicalId("AWS::S3::Bucket", "ConsoleFiles");
    assertThat(map(s.properties(bucket).get("PublicAccessBlockConfiguration")))
        .containsEntry("BlockPublicAcls", true)
        .containsEntry("BlockPublicPolicy", true)
        .containsEntry("IgnorePublicAcls", true)
        .containsEntry("RestrictPublicBuckets", true);
    assertThat(s.resources("AWS::CloudFront::OriginAccessControl")).hasSize(1);
    Map<String, Object> origin = originWith("S3OriginConfig");
    assertThat(origin).containsKey("OriginAccessControlId");
    assertThat(map(origin.get("S3OriginConfig"))).containsEntry("OriginAccessIdentity", "");

    List<Map<String, Object>> reads =
        s.resources("AWS::S3::BucketPolicy").values().stream()
            .map(r -> map(r.get("Properties")))
            .filter(p -> map(p.get("Bucket")).get("Ref").equals(bucket))
            .flatMap(p -> list(map(p.get("PolicyDocument")).get("Statement")).stream())
            .map(Synthesized::map)
            .filter(statement -> "Allow".equals(statement.get("Effect")))
            .toList();
    assertThat(reads).isNotEmpty();
    for (Map<String, Object> statement : reads) {
      assertThat(statement.get("Principal"))
          .isEqualTo(Map.of("Service", "cloudfront.amazonaws.com"));
      assertThat(statement.get("Action")).isEqualTo("s3:GetObject");
      assertThat(map(statement.get("Condition")).get("StringEquals").toString())
          .contains("AWS:SourceArn");
    }
  }

  @Test
  void theBuiltFilesAreUploadedUnderTheConsolesPathAndTheCacheIsCleared() {
    s.template.hasResourceProperties(
        "Custom::CDKBucketDeployment",
        Match.objectLike(
            Map.of(
                "DestinationBucketKeyPrefix",
                "ui/",
                "DistributionPaths",
                List.of("/ui*"),
                "Prune",
                true)));
    assertThat(s.json.get("Outputs").toString()).contains("ConsoleUrl");
  }

  @Test
  void theFilesAreSentWithTheTwinsSecurityHeaders() {
    Map<String, Object> config =
        map(
            s.properties(logicalId("AWS::CloudFront::ResponseHeadersPolicy", "ConsoleHeaders"))
                .get("ResponseHeadersPolicyConfig"));
    Map<String, Object> security = map(config.get("SecurityHeadersConfig"));
    Map<String, String> twin = ConsoleSite.securityHeaders();
    assertThat(map(security.get("ContentSecurityPolicy")))
        .containsEntry("ContentSecurityPolicy", twin.get("Content-Security-Policy"));
    assertThat(twin).containsEntry("X-Content-Type-Options", "nosniff");
    assertThat(security).containsKey("ContentTypeOptions");
    assertThat(map(security.get("FrameOptions")))
        .containsEntry("FrameOption", twin.get("X-Frame-Options"));
    assertThat(map(security.get("ReferrerPolicy")))
        .containsEntry("ReferrerPolicy", twin.get("Referrer-Policy"));
    assertThat(
            list(map(config.get("CustomHeadersConfig")).get("Items")).stream()
                .map(Synthesized::map)
                .toList())
        .anySatisfy(
            header ->
                assertThat(header)
                    .containsEntry("Header", "Cross-Origin-Opener-Policy")
                    .containsEntry("Value", twin.get("Cross-Origin-Opener-Policy")));
    // every header the twin sends is one of these
    assertThat(twin.keySet())
        .containsExactlyInAnyOrder(
            "Content-Security-Policy",
            "X-Content-Type-Options",
            "X-Frame-Options",
            "Referrer-Policy",
            "Cross-Origin-Opener-Policy");
  }

  @Test
  void theApiIsBehindTheSameOriginUncachedWithTheCallersHeaders() {
    Map<String, Object> distribution = distributionConfig();
    Map<String, Object> api = originWith("CustomOriginConfig");
    assertThat(map(api.get("CustomOriginConfig")))
        .containsEntry("OriginProtocolPolicy", "https-only");
    assertThat(api.get("DomainName").toString()).contains("ApiEndpoint").contains("Fn::Split");
    List<Map<String, Object>> behaviors =
        list(distribution.get("CacheBehaviors")).stream().map(Synthesized::map).toList();
    assertThat(behaviors)
        .extracting(b -> b.get("PathPattern"))
        .containsExactlyInAnyOrderElementsOf(WebConsole.API_PATHS);
    for (Map<String, Object> behavior : behaviors) {
      assertThat(behavior)
          .containsEntry("TargetOriginId", api.get("Id"))
          .containsEntry("CachePolicyId", CACHING_DISABLED)
          .containsEntry("OriginRequestPolicyId", ALL_VIEWER_EXCEPT_HOST_HEADER)
          .containsEntry("ViewerProtocolPolicy", "https-only");
      assertThat(list(behavior.get("AllowedMethods"))).contains("POST", "PUT", "DELETE");
    }
    // the page calls its own origin: the HTTP API needs no CORS
    s.resources("AWS::ApiGatewayV2::Api")
        .values()
        .forEach(r -> assertThat(map(r.get("Properties"))).doesNotContainKey("CorsConfiguration"));
  }

  @Test
  void thePageIsServedAtTheConsolesPath() {
    Map<String, Object> site = map(distributionConfig().get("DefaultCacheBehavior"));
    assertThat(site).containsEntry("ViewerProtocolPolicy", "redirect-to-https");
    String function = logicalId("AWS::CloudFront::Function", "ConsoleIndex");
    assertThat(list(site.get("FunctionAssociations")).toString()).contains(function);
    assertThat(s.properties(function).get("FunctionCode").toString())
        .contains("request.uri === '/ui'")
        .contains("request.uri = '/ui/index.html'");
  }

  private static Map<String, Object> distributionConfig() {
    return map(
        s.properties(logicalId("AWS::CloudFront::Distribution", "ConsoleDistribution"))
            .get("DistributionConfig"));
  }

  private static Map<String, Object> originWith(String kind) {
    return list(distributionConfig().get("Origins")).stream()
        .map(Synthesized::map)
        .filter(origin -> origin.containsKey(kind))
        .findFirst()
        .orElseThrow();
  }

  private static String logicalId(String type, String prefix) {
    List<String> ids =
        s.resources(type).keySet().stream().filter(id -> id.startsWith(prefix)).toList();
    assertThat(ids).as(type + " " + prefix + "*").hasSize(1);
    return ids.get(0);
  }
}
