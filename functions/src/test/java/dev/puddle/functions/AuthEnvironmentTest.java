package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.auth.IssuerSettings;
import dev.puddle.core.auth.TokenIssuer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The authentication settings as docs/authentication.md documents them, and their mistakes named at
 * init.
 */
class AuthEnvironmentTest {
  @Test
  void withoutSettingsOnlyPuddlesOwnTokensAreTrusted() {
    AuthEnvironment auth = new AuthEnvironment(Map.of());

    assertThat(auth.externalIssuers()).isEmpty();
    assertThat(auth.tokenSettings())
        .isEqualTo(new TokenIssuer.Settings("puddle", "puddle", Duration.ofHours(1)));
  }

  @Test
  void externalIssuersAreReadFromTheirJsonArray() {
    AuthEnvironment auth =
        new AuthEnvironment(
            Map.of(
                "PUDDLE_AUTH_ISSUERS",
                """
                [{"issuer": "https://idp.example.com/", "jwks-uri": "https://idp.example.com/jwks",
                  "audiences": "puddle", "realm": "acme"},
                 {"issuer": "https://sso.example.com", "jwks-uri": "https://sso.example.com/keys",
                  "audiences": ["catalog", "puddle"], "principal-claim": "email",
                  "realm-claim": "tenant"}]
                """));

    assertThat(auth.externalIssuers().stream().map(issuer -> issuer.settings()).toList())
        .containsExactly(
            new IssuerSettings(
                "https://idp.example.com/",
                URI.create("https://idp.example.com/jwks"),
                Set.of("puddle"),
                "sub",
                "acme",
                null),
            new IssuerSettings(
                "https://sso.example.com",
                URI.create("https://sso.example.com/keys"),
                Set.of("catalog", "puddle"),
                "email",
                null,
                "tenant"));
  }

  @Test
  void aMalformedIssuerListStopsTheFunctionNamingTheVariable() {
    for (String value :
        List.of(
            "{\"issuer\":\"x\"}",
            "[{\"issuer\":\"x\",\"jwks-uri\":\"https://x/jwks\",\"audiences\":[\"a\"]}]",
            "[{\"issuer\":\"x\",\"jwks-uri\":\"https://x/jwks\",\"realm\":\"r\"}]",
            "[{\"issuer\":\"x\",\"audiences\":\"a\",\"realm\":\"r\"}]",
            "[{\"issuer\":\"x\",\"jwks-uri\":\"https://x/jwks\",\"audiences\":\"a\","
                + "\"realm\":\"r\",\"realm-claim\":\"t\"}]",
            "[{\"jwks-uri\":\"https://x/jwks\",\"audiences\":\"a\",\"realm\":\"r\"}]",
            "[{\"issuer\":\"x\",\"jwks-uri\":\"http://x/jwks\",\"audiences\":\"a\",\"realm\":\"r\"}]",
            "not json")) {
      assertThatThrownBy(
              () -> new AuthEnvironment(Map.of("PUDDLE_AUTH_ISSUERS", value)).externalIssuers())
          .as(value)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("PUDDLE_AUTH_ISSUERS");
    }
  }

  @Test
  void puddlesOwnIssuerHasDefaultsAndBindsRealmsByClaim() {
    AuthEnvironment auth =
        new AuthEnvironment(Map.of("PUDDLE_TOKEN_ISSUER", "https://catalog.example.com"));

    TokenIssuer.Settings settings = auth.tokenSettings();
    assertThat(settings)
        .isEqualTo(
            new TokenIssuer.Settings("https://catalog.example.com", "puddle", Duration.ofHours(1)));
    assertThat(settings.verification().realmClaim()).isEqualTo(TokenIssuer.REALM_CLAIM);
    assertThat(auth.clockSkew()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void lifetimesAndSkewAreIsoDurations() {
    AuthEnvironment auth =
        new AuthEnvironment(
            Map.of(
                "PUDDLE_TOKEN_ISSUER", "puddle",
                "PUDDLE_TOKEN_AUDIENCE", "lakehouse",
                "PUDDLE_TOKEN_LIFETIME", "PT15M",
                "PUDDLE_AUTH_CLOCK_SKEW", "PT10S"));

    assertThat(auth.tokenSettings().lifetime()).isEqualTo(Duration.ofMinutes(15));
    assertThat(auth.tokenSettings().audience()).isEqualTo("lakehouse");
    assertThat(auth.clockSkew()).isEqualTo(Duration.ofSeconds(10));
    assertThatThrownBy(
            () ->
                new AuthEnvironment(
                        Map.of("PUDDLE_TOKEN_ISSUER", "puddle", "PUDDLE_TOKEN_LIFETIME", "1h"))
                    .tokenSettings())
        .hasMessageStartingWith("PUDDLE_TOKEN_LIFETIME");
  }

  @Test
  void theTokenFunctionNeedsItsSigningSecret() {
    assertThatThrownBy(
            () ->
                new AuthEnvironment(Map.of("PUDDLE_TOKEN_ISSUER", "puddle"))
                    .tokenIssuer(null, () -> null))
        .hasMessage("Missing environment variable PUDDLE_TOKEN_SIGNING_SECRET_ARN");
  }
}
