package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.access.AccessLevel;
import dev.puddle.core.api.TestClock;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.vending.CredentialScope;
import dev.puddle.core.vending.CredentialVendor;
import dev.puddle.core.vending.SessionRequest;
import dev.puddle.core.vending.StsTestEndpoint;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** The {@code PUDDLE_VENDING_*} variables make an STS vendor that calls the configured endpoint. */
class VendingEnvironmentTest {
  private static final String ROLE = "arn:aws:iam::123456789012:role/puddle-vending";
  private static final Warehouse WAREHOUSE =
      new Warehouse(1, "default", "default", "s3://lake/default", Map.of());

  @Test
  void assumesTheDefaultRoleAtTheConfiguredEndpointForTheConfiguredTime() {
    try (StsTestEndpoint sts = StsTestEndpoint.start(new TestClock(Instant.now()))) {
      CredentialVendor vendor =
          vendor(
              Map.of(
                  "PUDDLE_VENDING_ROLE_ARN",
                  ROLE,
                  "PUDDLE_VENDING_SESSION_SECONDS",
                  "900",
                  "PUDDLE_VENDING_STS_ENDPOINT",
                  sts.uri().toString(),
                  "AWS_REGION",
                  "eu-west-1"));

      assertThat(vendor.role(WAREHOUSE)).contains(ROLE);
      vendor.vend(
          new SessionRequest(
              ROLE,
              "puddle@default@root",
              CredentialScope.forTable(AccessLevel.READ, "s3://lake/default/t", Map.of())));
      vendor.forget();

      assertThat(sts.calls()).hasSize(1);
      assertThat(sts.calls().get(0).durationSeconds()).isEqualTo(900);
      assertThat(vendor.clientProperties()).containsEntry("client.region", "eu-west-1");
    }
  }

  @Test
  void withoutARoleNothingIsVended() {
    assertThat(vendor(Map.of()).role(WAREHOUSE)).isEmpty();
  }

  @Test
  void aSessionLengthStsWouldRefuseStopsTheFunctionAtInit() {
    assertThatThrownBy(() -> vendor(Map.of("PUDDLE_VENDING_SESSION_SECONDS", "600")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("PUDDLE_VENDING_SESSION_SECONDS");
  }

  private static CredentialVendor vendor(Map<String, String> variables) {
    return new Environment(variables)
        .credentialVendor(
            () -> StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")));
  }
}
