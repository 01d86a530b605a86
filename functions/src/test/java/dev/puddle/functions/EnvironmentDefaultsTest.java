package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.contract.EnvironmentVariable;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.TokenIssuer;
import dev.puddle.core.aws.StsCredentialVendor;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A function without a setting behaves as the local twin, which builds the same objects from core's
 * constants: the defaults the contract documents are those constants.
 */
class EnvironmentDefaultsTest {

  @Test
  void unsetTokenSettingsAreCoresDefaults() {
    AuthEnvironment auth = new AuthEnvironment(Map.of());

    assertThat(auth.tokenSettings())
        .isEqualTo(
            new TokenIssuer.Settings(
                TokenIssuer.Settings.DEFAULT_ISSUER,
                TokenIssuer.Settings.DEFAULT_AUDIENCE,
                TokenIssuer.Settings.DEFAULT_LIFETIME));
    assertThat(auth.clockSkew()).isEqualTo(JwtAuthenticator.DEFAULT_CLOCK_SKEW);
  }

  @Test
  void unsetVendingSessionsAndCompressionAreTheDefaultsElsewhere() {
    assertThat(
            Duration.ofSeconds(
                Long.parseLong(
                    EnvironmentVariable.VENDING_SESSION_SECONDS.defaultValue().orElseThrow())))
        .isEqualTo(StsCredentialVendor.DEFAULT_SESSION_DURATION);
    assertThat(new Environment(Map.of()).gzipMinBytes())
        .isEqualTo(ResponseEncoding.DEFAULT_MIN_BYTES);
  }
}
