package dev.puddle.core.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Set;
import java.util.UUID;

/**
 * A throwaway token issuer for SnapStart priming, so that the canned requests priming replays get
 * through authentication as real ones do (JWT parsing, signature and claim checks in Nimbus) and on
 * to authorization and the endpoints. Its key pair is generated in memory when priming starts and
 * published nowhere; its {@code iss} is unique to it. The authenticator trusts it only for the
 * length of priming ({@link JwtAuthenticator#trustTemporarily}), so once priming is over its tokens
 * are refused like any other untrusted issuer's, and no later request can present one.
 *
 * <p>Its tokens look like Puddle's own (ES256, {@code sub}, {@code scope} activating all principal
 * roles, a few minutes of life) and are bound to one realm by the issuer.
 */
public final class PrimingIssuer {
  /** The principal priming's tokens name. */
  public static final String PRINCIPAL = "snapstart-priming";

  private static final String AUDIENCE = "puddle-priming";
  private static final Duration LIFETIME = Duration.ofMinutes(5);

  private final ECKey key;
  private final IssuerSettings settings;
  private final Clock clock;

  private PrimingIssuer(ECKey key, IssuerSettings settings, Clock clock) {
    this.key = key;
    this.settings = settings;
    this.clock = clock;
  }

  /** A new issuer with a fresh P-256 key, whose tokens are bound to {@code realm}. */
  public static PrimingIssuer generate(String realm, Clock clock) {
    String id = "urn:puddle:snapstart-priming:" + UUID.randomUUID();
    try {
      ECKey key = new ECKeyGenerator(Curve.P_256).keyID(id).generate();
      return new PrimingIssuer(
          key, new IssuerSettings(id, null, Set.of(AUDIENCE), null, realm, null), clock);
    } catch (JOSEException e) {
      throw new IllegalStateException("Cannot generate a P-256 key", e);
    }
  }

  /** The issuer as an authenticator trusts it: its public key, held in memory. */
  public TrustedIssuer trusted() {
    JWKSet keys = new JWKSet(key.toPublicJWK());
    return new TrustedIssuer(settings, () -> keys);
  }

  /** A token for {@link #PRINCIPAL} activating all its principal roles. */
  public String token() {
    Instant now = clock.instant();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.ES256)
                .type(JOSEObjectType.JWT)
                .keyID(key.getKeyID())
                .build(),
            new JWTClaimsSet.Builder()
                .issuer(settings.issuer())
                .subject(PRINCIPAL)
                .audience(AUDIENCE)
                .claim("scope", PrincipalRoleScope.ALL_ROLES.toScope())
                .issueTime(Date.from(now))
                .notBeforeTime(Date.from(now))
                .expirationTime(Date.from(now.plus(LIFETIME)))
                .build());
    try {
      jwt.sign(new ECDSASigner(key));
    } catch (JOSEException e) {
      throw new IllegalStateException("Signing the priming token failed", e);
    }
    return jwt.serialize();
  }
}
