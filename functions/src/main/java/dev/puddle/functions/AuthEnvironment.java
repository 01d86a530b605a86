package dev.puddle.functions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.EnvironmentVariable;
import dev.puddle.core.auth.IssuerSettings;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.MetastoreKeySet;
import dev.puddle.core.auth.TokenIssuer;
import dev.puddle.core.auth.TrustedIssuer;
import dev.puddle.core.aws.SecretsManagerKeySet;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.SigningKeys;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * Authentication settings from the environment variables:
 *
 * <ul>
 *   <li>{@link EnvironmentVariable#AUTH_ISSUERS}: the external issuers, a JSON array of objects
 *       with {@code issuer}, {@code jwks-uri}, {@code audiences}, optionally {@code
 *       principal-claim}, and either {@code realm} or {@code realm-claim};
 *   <li>{@link EnvironmentVariable#TOKEN_ISSUER}: the {@code iss} of Puddle's own tokens: every
 *       function accepts them (keys from the metastore) and the token function issues them, signing
 *       with the key set in the secret {@link EnvironmentVariable#TOKEN_SIGNING_SECRET_ARN};
 *   <li>{@link EnvironmentVariable#TOKEN_AUDIENCE}, {@link EnvironmentVariable#TOKEN_LIFETIME},
 *       {@link EnvironmentVariable#AUTH_CLOCK_SKEW}.
 * </ul>
 *
 * A malformed setting stops the function at init, naming the variable.
 */
final class AuthEnvironment {
  private final Map<String, String> env;

  AuthEnvironment(Map<String, String> env) {
    this.env = env;
  }

  /** Verifies tokens of every configured issuer, Puddle's own with keys from the metastore. */
  JwtAuthenticator authenticator(Database database) {
    List<TrustedIssuer> issuers = new ArrayList<>(externalIssuers());
    issuers.add(ownIssuer(database));
    return new JwtAuthenticator(issuers, clockSkew(), Clock.systemUTC());
  }

  /** Verifies Puddle's own tokens only: the subject tokens of token exchanges. */
  JwtAuthenticator ownTokens(Database database) {
    return new JwtAuthenticator(List.of(ownIssuer(database)), clockSkew(), Clock.systemUTC());
  }

  /** Puddle's own issuer, signing with the keys of the secret {@code secretsManager} reads. */
  TokenIssuer tokenIssuer(Database database, Supplier<SecretsManagerClient> secretsManager) {
    return new TokenIssuer(
        tokenSettings(),
        new SecretsManagerKeySet(
            required(EnvironmentVariable.TOKEN_SIGNING_SECRET_ARN), secretsManager),
        new SigningKeys(database),
        Clock.systemUTC());
  }

  TokenIssuer.Settings tokenSettings() {
    return new TokenIssuer.Settings(
        required(EnvironmentVariable.TOKEN_ISSUER),
        required(EnvironmentVariable.TOKEN_AUDIENCE),
        duration(EnvironmentVariable.TOKEN_LIFETIME));
  }

  Duration clockSkew() {
    return duration(EnvironmentVariable.AUTH_CLOCK_SKEW);
  }

  private TrustedIssuer ownIssuer(Database database) {
    return new TrustedIssuer(
        tokenSettings().verification(), new MetastoreKeySet(new SigningKeys(database)));
  }

  /** {@link EnvironmentVariable#AUTH_ISSUERS}. */
  List<TrustedIssuer> externalIssuers() {
    String value = EnvironmentVariable.AUTH_ISSUERS.in(env).orElse(null);
    if (value == null) {
      return List.of();
    }
    List<TrustedIssuer> issuers = new ArrayList<>();
    try {
      // a mapper of its own, made only when there are external issuers to read
      JsonNode array = new ObjectMapper().readTree(value);
      if (!array.isArray()) {
        throw new IllegalStateException(
            EnvironmentVariable.AUTH_ISSUERS.key() + " must be a JSON array of issuers");
      }
      for (JsonNode issuer : array) {
        issuers.add(TrustedIssuer.remote(issuer(issuer)));
      }
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException(
          EnvironmentVariable.AUTH_ISSUERS.key() + " is malformed: " + e.getMessage());
    }
    return issuers;
  }

  private static IssuerSettings issuer(JsonNode node) {
    String jwksUri = text(node, "jwks-uri");
    URI uri = jwksUri == null ? null : URI.create(jwksUri);
    if (uri != null && !"https".equalsIgnoreCase(uri.getScheme())) {
      // keys fetched in the clear could be swapped on the way
      throw new IllegalArgumentException("jwks-uri must be an https URL: " + jwksUri);
    }
    return new IssuerSettings(
        text(node, "issuer"),
        uri,
        audiences(node.get("audiences")),
        text(node, "principal-claim"),
        text(node, "realm"),
        text(node, "realm-claim"));
  }

  private static Set<String> audiences(JsonNode node) {
    Set<String> audiences = new LinkedHashSet<>();
    if (node != null && node.isArray()) {
      node.forEach(audience -> audiences.add(audience.asText()));
    } else if (node != null && node.isTextual()) {
      audiences.add(node.asText());
    }
    return audiences;
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private Duration duration(EnvironmentVariable variable) {
    String value = required(variable);
    try {
      return Duration.parse(value);
    } catch (DateTimeParseException e) {
      throw new IllegalStateException(
          variable.key() + " must be an ISO-8601 duration such as PT1H: " + value);
    }
  }

  /** The variable's value, trimmed, else its default; stops the function if it has neither. */
  private String required(EnvironmentVariable variable) {
    return variable
        .in(env)
        .orElseThrow(
            () -> new IllegalStateException("Missing environment variable " + variable.key()));
  }
}
