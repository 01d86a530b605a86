package dev.puddle.core.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.puddle.core.auth.ClientCredentials.PrincipalRef;
import dev.puddle.core.metastore.SigningKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Puddle's own token issuer: signs short-lived access tokens (JWTs) for principals with the first
 * key of its private key set, and publishes the public half of the whole set in the metastore
 * before the first token signed with a key not published yet, so every function can verify the
 * token with a metastore read.
 *
 * <p>Rotation: add the new key to the set after the current one and wait for the old set to expire
 * from caches (15 minutes); then move it first, so it signs; remove the old key once the last token
 * it signed has expired. Each change is published by the next token issued.
 *
 * <p>A token carries {@code iss}, {@code sub} (the principal), {@code realm}, {@code scope} (the
 * principal roles it activates), {@code aud}, {@code iat}, {@code nbf}, {@code exp} and a unique
 * {@code jti}.
 */
public final class TokenIssuer {
  /** The claim binding a Puddle token to its realm. */
  public static final String REALM_CLAIM = "realm";

  /** Who issues, for whom, and for how long. */
  public record Settings(String issuer, String audience, Duration lifetime) {
    public static final String DEFAULT_ISSUER = "puddle";
    public static final String DEFAULT_AUDIENCE = "puddle";
    public static final Duration DEFAULT_LIFETIME = Duration.ofHours(1);

    /** How the verifiers trust this issuer: keys from the metastore, realm from its claim. */
    public IssuerSettings verification() {
      return new IssuerSettings(
          issuer,
          null,
          Set.of(audience),
          IssuerSettings.DEFAULT_PRINCIPAL_CLAIM,
          null,
          REALM_CLAIM);
    }
  }

  /** An issued token and what it grants. */
  public record Token(String value, Duration expiresIn, PrincipalRoleScope scope) {
    @Override
    public String toString() {
      return "Token[expiresIn=" + expiresIn + ", scope=" + scope + "]";
    }
  }

  private final Settings settings;
  private final KeyCache privateKeys;
  private final SigningKeys published;
  private final Clock clock;

  /** The public keys (by key id) this execution environment knows to be published. */
  private volatile Map<String, String> publishedKeys = Map.of();

  public TokenIssuer(
      Settings settings, KeySetSource privateKeys, SigningKeys published, Clock clock) {
    this.settings = settings;
    this.privateKeys = new KeyCache("Puddle's signing key set", privateKeys, clock);
    this.published = published;
    this.clock = clock;
  }

  public Settings settings() {
    return settings;
  }

  /** Issues a token for {@code principal} activating {@code scope}. */
  public Token issue(PrincipalRef principal, PrincipalRoleScope scope) {
    JWKSet keys;
    try {
      keys = privateKeys.keys();
    } catch (KeySourceException e) {
      throw new ServiceUnavailableException("The token signing keys are not available");
    }
    if (keys.getKeys().isEmpty()) {
      throw new IllegalStateException("The token signing key set is empty");
    }
    publish(keys);
    JWK key = keys.getKeys().get(0);
    Instant now = clock.instant();
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(settings.issuer())
            .subject(principal.principal())
            .audience(settings.audience())
            .claim(REALM_CLAIM, principal.realm())
            .claim("scope", scope.toScope())
            .issueTime(Date.from(now))
            .notBeforeTime(Date.from(now))
            .expirationTime(Date.from(now.plus(settings.lifetime())))
            .jwtID(UUID.randomUUID().toString())
            .build();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(algorithm(key))
                .type(JOSEObjectType.JWT)
                .keyID(key.getKeyID())
                .build(),
            claims);
    try {
      jwt.sign(signer(key));
    } catch (JOSEException e) {
      throw new IllegalStateException("Signing with key " + key.getKeyID() + " failed", e);
    }
    return new Token(jwt.serialize(), settings.lifetime(), scope);
  }

  /** Forgets the private keys and what was published: after a SnapStart restore. */
  public void clear() {
    privateKeys.clear();
    publishedKeys = Map.of();
  }

  /** Publishes the set's public keys unless this environment already saw them published. */
  private void publish(JWKSet keys) {
    Map<String, String> publicKeys = new LinkedHashMap<>();
    for (JWK key : keys.getKeys()) {
      if (key.getKeyID() == null || !key.isPrivate()) {
        throw new IllegalStateException(
            "Every key of the token signing key set needs a kid and its private part");
      }
      publicKeys.put(key.getKeyID(), key.toPublicJWK().toJSONString());
    }
    if (publicKeys.equals(publishedKeys)) {
      return;
    }
    if (!published.published().equals(publicKeys)) {
      published.publish(publicKeys);
    }
    publishedKeys = Map.copyOf(publicKeys);
  }

  private static JWSAlgorithm algorithm(JWK key) {
    if (key.getAlgorithm() != null) {
      JWSAlgorithm named = JWSAlgorithm.parse(key.getAlgorithm().getName());
      if (!JwtAuthenticator.ALGORITHMS.contains(named)) {
        throw new IllegalStateException(
            "Key " + key.getKeyID() + " names an algorithm tokens may not use: " + named);
      }
      return named;
    }
    if (key instanceof RSAKey) {
      return JWSAlgorithm.RS256;
    }
    if (key instanceof ECKey ec) {
      return switch (ec.getCurve().getName()) {
        case "P-256" -> JWSAlgorithm.ES256;
        case "P-384" -> JWSAlgorithm.ES384;
        case "P-521" -> JWSAlgorithm.ES512;
        default ->
            throw new IllegalStateException(
                "Key " + key.getKeyID() + " is on an unsupported curve " + ec.getCurve());
      };
    }
    throw new IllegalStateException("Key " + key.getKeyID() + " is neither an RSA nor an EC key");
  }

  private static JWSSigner signer(JWK key) throws JOSEException {
    if (key instanceof RSAKey rsa) {
      return new RSASSASigner(rsa);
    }
    return new ECDSASigner((ECKey) key);
  }
}
