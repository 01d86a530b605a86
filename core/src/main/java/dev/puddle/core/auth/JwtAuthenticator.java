package dev.puddle.core.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.puddle.core.api.Request;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Authenticates requests by their bearer JWT ({@code Authorization: Bearer <token>}), verified
 * in-process with Nimbus JOSE+JWT against the issuer the token names, which must be one of the
 * trusted ones. A token is accepted only if it is signed with an asymmetric algorithm (RSA, RSA-PSS
 * or ECDSA) by a key the issuer publishes, names an accepted audience, has not expired, is not used
 * before its {@code nbf} or {@code iat} (give or take the clock skew), and carries the principal
 * claim and, where the issuer binds realms by claim, the realm claim. Unsigned ({@code alg=none}),
 * encrypted and HMAC tokens are refused, so a token "signed" with an issuer's public key as an HMAC
 * secret gets nowhere.
 *
 * <p>Every refusal is a {@link NotAuthorizedException} (401) whose message never quotes the token;
 * when an issuer's keys cannot be loaded at all it is a {@link ServiceUnavailableException} (503),
 * which clients retry.
 *
 * <p>The token's {@code scope} claim says which principal roles it activates ({@link
 * PrincipalRoleScope#ofToken}).
 */
public final class JwtAuthenticator implements Authenticator {
  /** How far the issuer's clock may be off. */
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);

  /** The only signature algorithms accepted: asymmetric ones, so no shared secret exists. */
  public static final Set<JWSAlgorithm> ALGORITHMS =
      Set.of(
          JWSAlgorithm.RS256,
          JWSAlgorithm.RS384,
          JWSAlgorithm.RS512,
          JWSAlgorithm.PS256,
          JWSAlgorithm.PS384,
          JWSAlgorithm.PS512,
          JWSAlgorithm.ES256,
          JWSAlgorithm.ES384,
          JWSAlgorithm.ES512);

  /** The {@code typ} headers access tokens come with: none, {@code JWT} or RFC 9068's. */
  private static final DefaultJOSEObjectTypeVerifier<SecurityContext> TYPES =
      new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null);

  private static final String BEARER = "bearer ";

  /** A trusted issuer, ready to verify its tokens. */
  private record Verifier(
      IssuerSettings settings, KeyCache keys, DefaultJWTProcessor<SecurityContext> processor) {}

  /**
   * An issuer trusted only until it is closed: SnapStart priming's own. Closing it is what makes
   * its tokens worthless again.
   */
  public final class TemporaryTrust implements AutoCloseable {
    private final String issuer;

    private TemporaryTrust(String issuer) {
      this.issuer = issuer;
    }

    /** Stops trusting the issuer; its tokens are refused from now on. */
    @Override
    public void close() {
      synchronized (JwtAuthenticator.this) {
        Map<String, Verifier> remaining = new HashMap<>(verifiers);
        remaining.remove(issuer);
        verifiers = Map.copyOf(remaining);
      }
    }
  }

  /** Tokens kept verified: more than the engines one execution environment serves at a time. */
  private static final int VERIFIED_TOKENS = 1024;

  private final Duration clockSkew;
  private final Clock clock;
  private final VerifiedTokens verified = new VerifiedTokens(VERIFIED_TOKENS);

  /** Replaced as a whole, never changed: requests read it without a lock. */
  private volatile Map<String, Verifier> verifiers;

  /**
   * Trusts {@code issuers} (their {@code iss} values must differ), with one clock skew for all, and
   * {@code clock} for expiry checks and key refreshes.
   */
  public JwtAuthenticator(List<TrustedIssuer> issuers, Duration clockSkew, Clock clock) {
    this.clockSkew = clockSkew;
    this.clock = clock;
    Map<String, Verifier> trusted = new HashMap<>();
    for (TrustedIssuer issuer : issuers) {
      add(trusted, issuer);
    }
    this.verifiers = Map.copyOf(trusted);
  }

  /**
   * Trusts {@code issuer} as well, with the same checks as the others, until the returned trust is
   * closed. SnapStart priming verifies its canned requests' tokens this way, through the very code
   * real requests take, with an issuer whose key exists only in memory during priming.
   *
   * @throws IllegalArgumentException if an issuer with the same {@code iss} is trusted already
   */
  public synchronized TemporaryTrust trustTemporarily(TrustedIssuer issuer) {
    Map<String, Verifier> trusted = new HashMap<>(verifiers);
    add(trusted, issuer);
    verifiers = Map.copyOf(trusted);
    return new TemporaryTrust(issuer.settings().issuer());
  }

  private void add(Map<String, Verifier> trusted, TrustedIssuer issuer) {
    IssuerSettings settings = issuer.settings();
    KeyCache keys = new KeyCache(settings.issuer(), issuer.keys(), clock);
    DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    processor.setJWSTypeVerifier(TYPES);
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
    processor.setJWTClaimsSetVerifier(new ClaimsVerifier(settings, clockSkew, clock));
    if (trusted.putIfAbsent(settings.issuer(), new Verifier(settings, keys, processor)) != null) {
      throw new IllegalArgumentException("Issuer " + settings.issuer() + " is listed twice");
    }
  }

  @Override
  public Caller authenticate(Request request) {
    return verify(bearerToken(request));
  }

  /**
   * The caller {@code token} names, if it is valid.
   *
   * @throws NotAuthorizedException if it is not
   */
  public Caller verify(String token) {
    Instant now = clock.instant();
    VerifiedTokens.Verified known = verified.get(token, now);
    // only while the issuer that verified it is still trusted: a closed temporary trust ends it
    if (known != null && verifiers.get(known.issuer()) == known.verifiedBy()) {
      return known.caller();
    }
    SignedJWT jwt = parse(token);
    Verifier verifier = verifierOf(jwt);
    JWTClaimsSet claims;
    try {
      claims = verifier.processor().process(jwt, null);
    } catch (KeySourceException e) {
      throw new ServiceUnavailableException(
          "Cannot load the signing keys of the token's issuer; try again");
    } catch (BadJOSEException | JOSEException e) {
      throw new NotAuthorizedException("Invalid bearer token: %s", e.getMessage());
    }
    IssuerSettings settings = verifier.settings();
    String principal = stringClaim(claims, settings.principalClaim());
    String realm =
        settings.realmFromClaim() ? stringClaim(claims, settings.realmClaim()) : settings.realm();
    Caller caller = PrincipalRoleScope.ofToken(scope(claims)).caller(realm, principal);
    Instant expires = claims.getExpirationTime().toInstant().plus(clockSkew);
    Instant keysDue = verifier.keys().nextLoadDue();
    verified.put(
        token,
        new VerifiedTokens.Verified(
            caller, settings.issuer(), verifier, expires.isBefore(keysDue) ? expires : keysDue));
    return caller;
  }

  /** Forgets every issuer's cached keys and every verified token: after a SnapStart restore. */
  @Override
  public void clear() {
    verified.clear();
    verifiers.values().forEach(verifier -> verifier.keys().clear());
  }

  private static String bearerToken(Request request) {
    String header = request.header("authorization").orElse(null);
    if (header == null || header.isBlank()) {
      throw new NotAuthorizedException("Missing bearer token");
    }
    if (header.length() <= BEARER.length()
        || !header.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
      throw new NotAuthorizedException("The Authorization header does not carry a bearer token");
    }
    return header.substring(BEARER.length()).trim();
  }

  private static SignedJWT parse(String token) {
    JWT jwt;
    try {
      jwt = JWTParser.parse(token);
    } catch (ParseException e) {
      throw new NotAuthorizedException("Malformed bearer token");
    }
    if (!(jwt instanceof SignedJWT signed)) {
      throw new NotAuthorizedException("Invalid bearer token: not signed");
    }
    return signed;
  }

  private Verifier verifierOf(SignedJWT jwt) {
    String issuer;
    try {
      issuer = jwt.getJWTClaimsSet().getIssuer();
    } catch (ParseException e) {
      throw new NotAuthorizedException("Malformed bearer token");
    }
    Verifier verifier = issuer == null ? null : verifiers.get(issuer);
    if (verifier == null) {
      // the issuer is whatever the sender wrote: do not repeat it
      throw new NotAuthorizedException("Invalid bearer token: issuer not trusted");
    }
    return verifier;
  }

  private static String stringClaim(JWTClaimsSet claims, String name) {
    try {
      String value = claims.getStringClaim(name);
      if (value == null || value.isBlank()) {
        throw new NotAuthorizedException("Invalid bearer token: empty claim %s", name);
      }
      return value;
    } catch (ParseException e) {
      throw new NotAuthorizedException("Invalid bearer token: claim %s is not a string", name);
    }
  }

  /** The {@code scope} claim: a space-separated string, or a list as some IdPs write it. */
  private static String scope(JWTClaimsSet claims) {
    Object scope = claims.getClaim("scope");
    if (scope instanceof Collection<?> values) {
      return String.join(" ", values.stream().map(String::valueOf).toList());
    }
    return scope instanceof String text ? text : null;
  }

  /**
   * Nimbus's claim checks (issuer, audience, required claims, {@code exp} and {@code nbf} within
   * the skew) on the injected clock, plus {@code iat}: a token issued in the future is not valid
   * yet either.
   */
  private static final class ClaimsVerifier extends DefaultJWTClaimsVerifier<SecurityContext> {
    private final Clock clock;

    ClaimsVerifier(IssuerSettings settings, Duration clockSkew, Clock clock) {
      super(
          settings.audiences(),
          new JWTClaimsSet.Builder().issuer(settings.issuer()).build(),
          requiredClaims(settings),
          null);
      this.clock = clock;
      setMaxClockSkew(Math.toIntExact(clockSkew.toSeconds()));
    }

    private static Set<String> requiredClaims(IssuerSettings settings) {
      Set<String> required = new HashSet<>(Set.of("iss", "exp", settings.principalClaim()));
      Optional.ofNullable(settings.realmClaim()).ifPresent(required::add);
      return required;
    }

    @Override
    protected Date currentTime() {
      return Date.from(clock.instant());
    }

    @Override
    public void verify(JWTClaimsSet claims, SecurityContext context) throws BadJWTException {
      super.verify(claims, context);
      Date issuedAt = claims.getIssueTime();
      if (issuedAt != null
          && issuedAt.toInstant().isAfter(clock.instant().plusSeconds(getMaxClockSkew()))) {
        throw new BadJWTException("JWT issued in the future");
      }
    }
  }
}
