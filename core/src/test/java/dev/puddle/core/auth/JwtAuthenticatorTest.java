package dev.puddle.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.puddle.contract.Route;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.api.TestClock;
import dev.puddle.core.rest.ErrorMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bearer JWTs from external issuers, minted with Nimbus and verified against their JWKS documents
 * served on loopback: what is accepted, every way a forged or stale token is refused (401 with an
 * Iceberg error that never quotes the token), and the key cache's rules (a new {@code kid} is
 * picked up, at most one load per 30 s for unknown keys, a load every 15 minutes, none of them
 * stampeding, a failed load keeping the cached keys), proven with a clock the test moves.
 */
class JwtAuthenticatorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ISSUER = "https://idp.example.com/";
  private static final String TENANT_ISSUER = "https://tenants.example.com/";
  private static final String AUDIENCE = "puddle";
  private static final Instant START = Instant.parse("2026-06-01T10:00:00Z");

  private final TestClock clock = new TestClock(START);
  private JwksServer idp;
  private JwksServer tenants;
  private RSAKey rsa;
  private ECKey ec;
  private ECKey tenantKey;
  private JwtAuthenticator authenticator;

  @BeforeEach
  void setUp() throws Exception {
    idp = new JwksServer();
    tenants = new JwksServer();
    rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
    ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
    tenantKey = new ECKeyGenerator(Curve.P_384).keyID("tenant-1").generate();
    idp.publish(new JWKSet(List.of(rsa, ec)));
    tenants.publish(new JWKSet(tenantKey));
    authenticator =
        new JwtAuthenticator(
            List.of(
                TrustedIssuer.remote(
                    new IssuerSettings(ISSUER, idp.uri(), Set.of(AUDIENCE), null, "acme", null)),
                TrustedIssuer.remote(
                    new IssuerSettings(
                        TENANT_ISSUER,
                        tenants.uri(),
                        Set.of("catalog", AUDIENCE),
                        "email",
                        null,
                        "tenant"))),
            JwtAuthenticator.DEFAULT_CLOCK_SKEW,
            clock);
  }

  @AfterEach
  void tearDown() {
    idp.close();
    tenants.close();
  }

  @Test
  void aValidTokenNamesItsPrincipalInTheIssuersRealmWithAllRoles() throws Exception {
    Caller caller = authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));

    assertThat(caller).isEqualTo(Caller.withAllRoles("acme", "alice"));
  }

  @Test
  void everyAsymmetricAlgorithmIsAccepted() throws Exception {
    for (JWSAlgorithm algorithm :
        List.of(JWSAlgorithm.RS384, JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS512)) {
      assertThat(authenticator.authenticate(bearer(sign(rsa, algorithm, claims()))).principal())
          .isEqualTo("alice");
    }
    assertThat(authenticator.authenticate(bearer(sign(ec, JWSAlgorithm.ES256, claims()))).realm())
        .isEqualTo("acme");
  }

  @Test
  void theRealmAndPrincipalComeFromTheClaimsTheIssuerNamesAndTheScopeActivatesRoles()
      throws Exception {
    JWTClaimsSet claims =
        claims(
            TENANT_ISSUER,
            b ->
                b.claim("email", "bob@example.com")
                    .claim("tenant", "globex")
                    .claim("scope", "openid PRINCIPAL_ROLE:reader PRINCIPAL_ROLE:auditor"));

    Caller caller = authenticator.authenticate(bearer(sign(tenantKey, JWSAlgorithm.ES384, claims)));

    assertThat(caller)
        .isEqualTo(new Caller("globex", "bob@example.com", false, Set.of("reader", "auditor")));
  }

  @Test
  void aTokenWithoutItsRealmClaimIsRefused() throws Exception {
    JWTClaimsSet claims = claims(TENANT_ISSUER, b -> b.claim("email", "bob@example.com"));

    refused(sign(tenantKey, JWSAlgorithm.ES384, claims));
  }

  @Test
  void unsignedTokensAreRefused() {
    refused(new PlainJWT(claims()).serialize());
    // alg=none with a signature part, as some libraries accepted it
    String none = new PlainJWT(claims()).serialize() + "c2ln";
    refused(none);
  }

  @Test
  void hmacTokensAreRefusedEvenWhenKeyedWithTheIssuersPublicKey() throws Exception {
    // the classic key confusion: HS256 with the RSA public key as the shared secret
    byte[] publicKey = rsa.toRSAPublicKey().getEncoded();
    SignedJWT confused =
        new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("rsa-1").build(), claims());
    confused.sign(new MACSigner(publicKey));
    refused(confused.serialize());

    SignedJWT hs512 =
        new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS512).keyID("rsa-1").build(), claims());
    hs512.sign(new MACSigner(rsa.toRSAPublicKey().getEncoded()));
    refused(hs512.serialize());
  }

  @Test
  void aTokenSignedWithAKeyTheIssuerDoesNotPublishIsRefused() throws Exception {
    RSAKey forged = new RSAKeyGenerator(2048).keyID("rsa-1").generate();

    refused(sign(forged, JWSAlgorithm.RS256, claims()));
  }

  @Test
  void aTokenOfAnUntrustedIssuerOrSignedByAnotherTrustedIssuerIsRefused() throws Exception {
    refused(sign(rsa, JWSAlgorithm.RS256, claims("https://evil.example.com/", b -> {})));
    refused(sign(rsa, JWSAlgorithm.RS256, claims(null, b -> {})));
    // signed by the first issuer's key, claiming to come from the second one
    refused(
        sign(
            rsa,
            JWSAlgorithm.RS256,
            claims(TENANT_ISSUER, b -> b.claim("email", "x@example.com").claim("tenant", "t"))));
  }

  @Test
  void aTemporarilyTrustedIssuerIsTrustedUntilItsTrustIsClosed() {
    PrimingIssuer priming = PrimingIssuer.generate("acme", clock);
    String token = priming.token();
    refused(token);

    JwtAuthenticator.TemporaryTrust trust = authenticator.trustTemporarily(priming.trusted());
    assertThat(authenticator.verify(token))
        .isEqualTo(Caller.withAllRoles("acme", PrimingIssuer.PRINCIPAL));
    trust.close();

    refused(token);
    refused(priming.token());
  }

  @Test
  void aTemporaryIssuerCannotStandInForATrustedOne() {
    TrustedIssuer impostor =
        new TrustedIssuer(
            new IssuerSettings(ISSUER, null, Set.of(AUDIENCE), null, "acme", null),
            () -> new JWKSet(rsa.toPublicJWK()));

    assertThatThrownBy(() -> authenticator.trustTemporarily(impostor))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aTokenForAnotherAudienceOrNoneIsRefused() throws Exception {
    refused(sign(rsa, JWSAlgorithm.RS256, claims(ISSUER, b -> b.audience("another-service"))));
    refused(sign(rsa, JWSAlgorithm.RS256, claims(ISSUER, b -> b.audience((String) null))));
  }

  @Test
  void expiryIsCheckedWithTheClockSkew() throws Exception {
    Instant now = clock.instant();
    String withinSkew =
        sign(
            rsa,
            JWSAlgorithm.RS256,
            claims(ISSUER, b -> b.expirationTime(at(now.minusSeconds(30)))));
    assertThat(authenticator.authenticate(bearer(withinSkew)).principal()).isEqualTo("alice");

    refused(
        sign(
            rsa,
            JWSAlgorithm.RS256,
            claims(ISSUER, b -> b.expirationTime(at(now.minusSeconds(61))))));
    refused(sign(rsa, JWSAlgorithm.RS256, claims(ISSUER, b -> b.expirationTime(null))));
  }

  @Test
  void aTokenNotValidYetIsRefused() throws Exception {
    Instant now = clock.instant();
    refused(
        sign(
            rsa,
            JWSAlgorithm.RS256,
            claims(ISSUER, b -> b.notBeforeTime(at(now.plusSeconds(120))))));
    refused(
        sign(rsa, JWSAlgorithm.RS256, claims(ISSUER, b -> b.issueTime(at(now.plusSeconds(120))))));
    String issuedWithinSkew =
        sign(rsa, JWSAlgorithm.RS256, claims(ISSUER, b -> b.issueTime(at(now.plusSeconds(30)))));
    assertThat(authenticator.authenticate(bearer(issuedWithinSkew)).principal()).isEqualTo("alice");
  }

  @Test
  void aRequestWithoutABearerTokenIsRefused() throws Exception {
    String token = sign(rsa, JWSAlgorithm.RS256, claims());
    for (Request request :
        List.of(
            request(Map.of()),
            request(Map.of("authorization", "Basic " + token)),
            request(Map.of("authorization", "Bearer ")),
            request(Map.of("authorization", "Bearer not.a.jwt")),
            request(Map.of("authorization", "Bearer " + token.substring(0, token.length() - 4))))) {
      assertRefusal(() -> authenticator.authenticate(request), token);
    }
  }

  @Test
  void aNewKeyAtTheIssuerIsPickedUpWithOneLoad() throws Exception {
    authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));
    assertThat(idp.fetches()).isEqualTo(1);

    RSAKey rotated = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
    idp.publish(new JWKSet(List.of(rotated, rsa)));
    clock.advance(Duration.ofSeconds(31));

    assertThat(authenticator.authenticate(bearer(sign(rotated, JWSAlgorithm.RS256, claims()))))
        .isEqualTo(Caller.withAllRoles("acme", "alice"));
    assertThat(authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims()))))
        .isEqualTo(Caller.withAllRoles("acme", "alice"));
    assertThat(idp.fetches()).isEqualTo(2);
  }

  @Test
  void unknownKeysTriggerAtMostOneLoadPer30Seconds() throws Exception {
    authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));
    RSAKey unknown = new RSAKeyGenerator(2048).keyID("made-up").generate();
    String token = sign(unknown, JWSAlgorithm.RS256, claims());

    clock.advance(Duration.ofSeconds(30));
    refused(token);
    assertThat(idp.fetches()).isEqualTo(2);
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofSeconds(5));
      refused(token);
    }
    assertThat(idp.fetches()).as("no load within 30 s of the last").isEqualTo(2);

    // the issuer publishes the key: it is found once 30 s have passed since the last load
    idp.publish(new JWKSet(List.of(rsa, unknown)));
    refused(token);
    assertThat(idp.fetches()).isEqualTo(2);
    clock.advance(Duration.ofSeconds(5));
    assertThat(authenticator.authenticate(bearer(token)).principal()).isEqualTo("alice");
    assertThat(idp.fetches()).isEqualTo(3);
  }

  @Test
  void keysAreLoadedAgainEvery15Minutes() throws Exception {
    String token = sign(rsa, JWSAlgorithm.RS256, claims());
    authenticator.authenticate(bearer(token));

    clock.advance(Duration.ofMinutes(15).minusSeconds(1));
    authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));
    assertThat(idp.fetches()).isEqualTo(1);

    // a key the issuer withdrew stops working at the periodic load, with no unknown kid involved
    idp.publish(new JWKSet(ec));
    clock.advance(Duration.ofSeconds(1));
    refused(sign(rsa, JWSAlgorithm.RS256, claims()));
    assertThat(idp.fetches()).isEqualTo(2);
  }

  @Test
  void aFailedLoadKeepsTheCachedKeys() throws Exception {
    authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));
    idp.failing(true);

    clock.advance(Duration.ofMinutes(16));
    assertThat(authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims()))).realm())
        .isEqualTo("acme");
    assertThat(idp.fetches()).isEqualTo(2);
    // and the failing issuer is not asked again on every request
    authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));
    assertThat(idp.fetches()).isEqualTo(2);

    idp.failing(false);
    clock.advance(Duration.ofSeconds(30));
    authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));
    assertThat(idp.fetches()).isEqualTo(3);
  }

  @Test
  void anIssuerWhoseKeysWereNeverLoadedAnswers503() throws Exception {
    idp.failing(true);
    String token = sign(rsa, JWSAlgorithm.RS256, claims());

    Throwable thrown = catchThrowable(() -> authenticator.authenticate(bearer(token)));
    assertThat(thrown).isInstanceOf(ServiceUnavailableException.class);
    assertThat(ErrorMapper.toResponse(thrown).status()).isEqualTo(503);
  }

  @Test
  void concurrentRequestsWithANewKeyLoadOnce() throws Exception {
    authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));
    RSAKey rotated = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
    idp.publish(new JWKSet(List.of(rotated, rsa)));
    clock.advance(Duration.ofMinutes(1));
    String token = sign(rotated, JWSAlgorithm.RS256, claims());

    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Caller>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Callable<Caller> verify =
            () -> {
              start.await();
              return authenticator.authenticate(bearer(token));
            };
        results.add(pool.submit(verify));
      }
      start.countDown();
      for (Future<Caller> result : results) {
        assertThat(result.get().principal()).isEqualTo("alice");
      }
    } finally {
      pool.shutdown();
    }
    assertThat(idp.fetches()).isEqualTo(2);
  }

  @Test
  void aVerifiedTokenStandsOnlyUntilItExpiresOrItsIssuersKeysAreDue() throws Exception {
    Instant now = clock.instant();
    String shortLived =
        sign(
            rsa,
            JWSAlgorithm.RS256,
            claims(ISSUER, b -> b.expirationTime(at(now.plusSeconds(60)))));
    String longLived =
        sign(
            rsa,
            JWSAlgorithm.RS256,
            claims(ISSUER, b -> b.expirationTime(at(now.plus(Duration.ofHours(1))))));
    authenticator.authenticate(bearer(shortLived));
    authenticator.authenticate(bearer(longLived));
    idp.publish(new JWKSet(ec)); // the issuer withdraws the key both were signed with

    clock.advance(Duration.ofMinutes(14));
    refused(shortLived);
    assertThat(authenticator.authenticate(bearer(longLived)).principal())
        .as("verified 14 minutes ago, its keys not due yet")
        .isEqualTo("alice");

    clock.advance(Duration.ofMinutes(1));
    refused(longLived);
    assertThat(idp.fetches()).isEqualTo(2);

    authenticator.clear();
    refused(longLived);
  }

  @Test
  void aTokenVerifiedLateInItsKeysLifeStandsOnlyUntilTheKeysAreDue() throws Exception {
    authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));
    clock.advance(Duration.ofMinutes(10));
    String late = sign(rsa, JWSAlgorithm.RS256, claims());
    authenticator.authenticate(bearer(late));
    idp.publish(new JWKSet(ec)); // withdrawn right after

    clock.advance(Duration.ofMinutes(5));
    refused(late);
    assertThat(idp.fetches())
        .as("due when the keys loaded first were, not 15 minutes after the late token")
        .isEqualTo(2);
  }

  @Test
  void clearingForgetsTheKeys() throws Exception {
    authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));
    authenticator.clear();

    authenticator.authenticate(bearer(sign(rsa, JWSAlgorithm.RS256, claims())));

    assertThat(idp.fetches()).isEqualTo(2);
  }

  /** A refusal: 401 with an Iceberg error body of type NotAuthorizedException, token not quoted. */
  private void refused(String token) {
    assertRefusal(() -> authenticator.authenticate(bearer(token)), token);
  }

  private static void assertRefusal(Runnable authenticate, String token) {
    Throwable thrown = catchThrowable(authenticate::run);
    assertThat(thrown).isInstanceOf(NotAuthorizedException.class);
    Response response = ErrorMapper.toResponse(thrown);
    assertThat(response.status()).isEqualTo(401);
    JsonNode error = read(response.body()).get("error");
    assertThat(error.get("type").asText()).isEqualTo("NotAuthorizedException");
    assertThat(error.get("code").asInt()).isEqualTo(401);
    for (String part : token.split("\\.")) {
      if (part.length() > 8) {
        assertThat(response.body()).doesNotContain(part);
      }
    }
  }

  private static JsonNode read(String body) {
    try {
      return JSON.readTree(body);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private JWTClaimsSet claims() {
    return claims(ISSUER, b -> {});
  }

  private JWTClaimsSet claims(String issuer, Consumer<JWTClaimsSet.Builder> changes) {
    Instant now = clock.instant();
    JWTClaimsSet.Builder builder =
        new JWTClaimsSet.Builder()
            .issuer(issuer)
            .subject("alice")
            .audience(AUDIENCE)
            .issueTime(at(now))
            .expirationTime(at(now.plus(Duration.ofHours(1))))
            .jwtID(java.util.UUID.randomUUID().toString());
    changes.accept(builder);
    return builder.build();
  }

  private static String sign(JWK key, JWSAlgorithm algorithm, JWTClaimsSet claims)
      throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(algorithm).keyID(key.getKeyID()).type(JOSEObjectType.JWT).build(),
            claims);
    jwt.sign(key instanceof RSAKey r ? new RSASSASigner(r) : new ECDSASigner((ECKey) key));
    return jwt.serialize();
  }

  private static Date at(Instant instant) {
    return Date.from(instant);
  }

  private static Request bearer(String token) {
    return request(Map.of("authorization", "Bearer " + token));
  }

  private static Request request(Map<String, String> headers) {
    return new Request(Route.LIST_NAMESPACES, Map.of("prefix", "wh"), Map.of(), headers, null);
  }
}
