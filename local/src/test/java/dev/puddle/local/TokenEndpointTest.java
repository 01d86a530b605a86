package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.puddle.core.access.Grant;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Securable;
import dev.puddle.core.api.TestClock;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.auth.ClientCredentials;
import dev.puddle.core.auth.ClientCredentials.PrincipalRef;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.MetastoreKeySet;
import dev.puddle.core.auth.TokenEndpoint;
import dev.puddle.core.auth.TokenIssuer;
import dev.puddle.core.auth.TrustedIssuer;
import dev.puddle.core.aws.SecretsManagerKeySet;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.SigningKeys;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.CatalogRoles;
import dev.puddle.core.metastore.access.PrincipalRoles;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.metastore.access.PrivilegeGrants;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.functions.CatalogHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.rest.HTTPClient;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.AuthSession;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.rest.auth.OAuth2Util;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.OAuthErrorResponseParser;
import org.apache.iceberg.rest.responses.OAuthTokenResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Puddle's own token issuer end to end, over HTTP through the API Gateway bridge and the catalog
 * handler: the signing key set comes from Secrets Manager (the real SDK client against a loopback
 * endpoint speaking its protocol), the public keys are published in the twin's metastore, and the
 * catalog verifies tokens with keys read back from there, as the read and write functions do.
 * Iceberg's own {@link RESTCatalog} obtains its token with {@code credential=id:secret}. Refusals
 * come in the OAuth error shape Iceberg parses; nothing secret reaches the logs.
 */
class TokenEndpointTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ARN =
      "arn:aws:secretsmanager:us-east-1:000000000000:secret:puddle-token-signing-AbCdEf";
  private static final String ISSUER = "https://puddle.example.com/";
  private static final String CLIENT_ID = "etl-7f3a";
  private static final String SECRET = "Zq9s3cr3t-b2Lm";
  private static final PrincipalRef ETL = new PrincipalRef(LocalTwin.REALM, "etl");

  /** The test's stand-in for the principal store: one client. */
  private static final ClientCredentials CLIENTS =
      (id, secret) ->
          CLIENT_ID.equals(id) && SECRET.equals(secret) ? Optional.of(ETL) : Optional.empty();

  private final TestClock clock = new TestClock(Instant.now());
  private final ByteArrayOutputStream logs = new ByteArrayOutputStream();
  private PrintStream out;
  private PrintStream err;
  private SecretsManagerEndpoint secrets;
  private RSAKey first;
  private String warehouse;
  private TestTwin.Metastore metastore;
  private TestEndpoint endpoint;

  @BeforeEach
  void setUp() throws Exception {
    out = System.out;
    err = System.err;
    System.setOut(new PrintStream(new Tee(out, logs), true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(new Tee(err, logs), true, StandardCharsets.UTF_8));

    // key ids are unique, as an operator would make them: the tests share one metastore
    first = new RSAKeyGenerator(2048).keyID("puddle-1-" + UUID.randomUUID()).generate();
    secrets = new SecretsManagerEndpoint(ARN);
    secrets.secret(new JWKSet(first).toString(false));
    // a metastore of its own: the test's signing keys would withdraw the shared twin's
    warehouse = "tokens";
    metastore = TestTwin.separateMetastore(warehouse);
    grantEtlTheWarehouse();

    TokenIssuer.Settings settings = new TokenIssuer.Settings(ISSUER, "puddle", Duration.ofHours(1));
    SigningKeys published = new SigningKeys(metastore.database());
    JwtAuthenticator puddleTokens = verifier(settings);
    CatalogApi api =
        CatalogApi.builder(
                new CatalogApi.Settings(LocalTwin.REALM, warehouse),
                metastore.database(),
                TestTwin.get().storage())
            .authenticator(puddleTokens)
            .tokens(
                new TokenEndpoint(
                    new TokenIssuer(
                        settings, new SecretsManagerKeySet(ARN, secrets::client), published, clock),
                    CLIENTS,
                    verifier(settings)))
            .build();
    // built after the streams are captured: the request log writes to the System.out of then
    endpoint = TestEndpoint.start(new CatalogHandler(api));
  }

  /**
   * The test's principal {@code etl}, whose principal role {@code reader} manages the content of
   * the test's warehouse: tokens name a principal the access model knows.
   */
  private void grantEtlTheWarehouse() {
    Database database = metastore.database();
    Principals principals = new Principals(database);
    if (principals.list(LocalTwin.REALM).stream().noneMatch(p -> p.name().equals("etl"))) {
      principals.create(LocalTwin.REALM, "etl", Map.of());
      new PrincipalRoles(database).create(LocalTwin.REALM, "reader", Map.of());
      new PrincipalRoles(database).assign(LocalTwin.REALM, "etl", "reader");
    }
    Warehouse tokens = new Warehouses(database).get(LocalTwin.REALM, warehouse);
    CatalogRoles catalogRoles = new CatalogRoles(database);
    catalogRoles.create(tokens, "content", Map.of());
    catalogRoles.assign(tokens, "reader", "content");
    new PrivilegeGrants(database)
        .add(tokens, "content", new Grant(Privilege.CATALOG_MANAGE_CONTENT, Securable.catalog()));
  }

  @AfterEach
  void tearDown() {
    System.setOut(out);
    System.setErr(err);
    endpoint.close();
    secrets.close();
    metastore.close();
  }

  @Test
  void icebergsClientGetsATokenWithItsCredentialAndUsesIt() {
    try (RESTCatalog catalog =
        endpoint.client(
            warehouse,
            Map.of(
                OAuth2Properties.CREDENTIAL, CLIENT_ID + ":" + SECRET,
                OAuth2Properties.SCOPE, "PRINCIPAL_ROLE:ALL",
                OAuth2Properties.OAUTH2_SERVER_URI, endpoint.uri() + "/v1/oauth/tokens"))) {
      catalog.createNamespace(Namespace.of("ingest"));
      assertThat(catalog.listNamespaces()).containsExactly(Namespace.of("ingest"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThat(secrets.fetches()).as("the signing keys are cached").isEqualTo(1);
    assertNothingSecretLogged();
  }

  @Test
  void icebergsClientWithAWrongSecretOrNoCredentialIsRefused() {
    assertThatThrownBy(
            () ->
                endpoint.client(
                    warehouse, Map.of(OAuth2Properties.CREDENTIAL, CLIENT_ID + ":wrong-secret")))
        .isInstanceOf(NotAuthorizedException.class);
    assertThatThrownBy(() -> endpoint.client(warehouse))
        .isInstanceOf(NotAuthorizedException.class)
        .hasMessageContaining("Missing bearer token");
    assertNothingSecretLogged();
  }

  @Test
  void aTokenIsAJwtOfPuddlesIssuerForThePrincipalItsRealmAndScope() throws Exception {
    JsonNode response = tokenRequest(form(CLIENT_ID, SECRET, "PRINCIPAL_ROLE:reader"), null).json;

    assertThat(response.get("token_type").asText()).isEqualTo("bearer");
    assertThat(response.get("issued_token_type").asText())
        .isEqualTo(OAuth2Properties.ACCESS_TOKEN_TYPE);
    assertThat(response.get("expires_in").asInt()).isEqualTo(3600);
    assertThat(response.get("scope").asText()).isEqualTo("PRINCIPAL_ROLE:reader");
    SignedJWT jwt = SignedJWT.parse(response.get("access_token").asText());
    JWTClaimsSet claims = jwt.getJWTClaimsSet();
    assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
    assertThat(jwt.getHeader().getKeyID()).isEqualTo(first.getKeyID());
    assertThat(claims.getIssuer()).isEqualTo(ISSUER);
    assertThat(claims.getSubject()).isEqualTo("etl");
    assertThat(claims.getStringClaim("realm")).isEqualTo(LocalTwin.REALM);
    assertThat(claims.getAudience()).containsExactly("puddle");
    assertThat(claims.getJWTID()).isNotBlank();
    assertThat(claims.getExpirationTime().toInstant())
        .isEqualTo(claims.getIssueTime().toInstant().plus(Duration.ofHours(1)));

    // a function that never saw the secret verifies it with the keys in the metastore
    Caller caller =
        verifier(new TokenIssuer.Settings(ISSUER, "puddle", Duration.ofHours(1)))
            .verify(jwt.serialize());
    assertThat(caller).isEqualTo(new Caller(LocalTwin.REALM, "etl", false, Set.of("reader")));
    // and so does anyone with the published JWKS document
    JWKSet document = JWKSet.parse(get("/.well-known/jwks.json"));
    assertThat(document.getKeys()).allMatch(key -> !key.isPrivate());
    assertThat(jwt.verify(new RSASSAVerifier(document.getKeyByKeyId(first.getKeyID()).toRSAKey())))
        .isTrue();
  }

  @Test
  void icebergsDefaultScopeAndHttpBasicClientAuthenticationWork() throws Exception {
    String basic =
        Base64.getEncoder()
            .encodeToString((CLIENT_ID + ":" + SECRET).getBytes(StandardCharsets.UTF_8));
    Answer answer =
        tokenRequest(
            formOf(Map.of("grant_type", "client_credentials", "scope", "catalog")),
            "Basic " + basic);

    assertThat(answer.status).isEqualTo(200);
    assertThat(answer.json.get("scope").asText()).isEqualTo("PRINCIPAL_ROLE:ALL");
    assertThat(answer.headers.firstValue("cache-control")).contains("no-store");
  }

  @Test
  void refusalsComeInTheOAuthShapeIcebergParses() throws Exception {
    Answer unknownClient = tokenRequest(form("nobody", SECRET, null), null);
    Answer wrongSecret = tokenRequest(form(CLIENT_ID, "guess", null), null);
    assertThat(unknownClient.status).isEqualTo(401);
    assertThat(wrongSecret.status).isEqualTo(401);
    assertThat(unknownClient.body)
        .as("unknown id and wrong secret look alike")
        .isEqualTo(wrongSecret.body);
    assertThat(oauthError(unknownClient).type()).isEqualTo("invalid_client");

    assertOAuthError(tokenRequest("client_id=" + CLIENT_ID, null), 400, "invalid_request");
    assertOAuthError(
        tokenRequest(
            formOf(Map.of("grant_type", "password", "username", "a", "password", "b")), null),
        400,
        "unsupported_grant_type");
    assertOAuthError(tokenRequest(form(CLIENT_ID, SECRET, "admin"), null), 400, "invalid_scope");
    assertOAuthError(
        tokenRequest(
            form(CLIENT_ID, SECRET, null),
            "Basic "
                + Base64.getEncoder()
                    .encodeToString((CLIENT_ID + ":" + SECRET).getBytes(StandardCharsets.UTF_8))),
        400,
        "invalid_request");
    assertOAuthError(
        tokenRequest("grant_type=client_credentials&client_id=a&client_id=b", null),
        400,
        "invalid_request");
    assertOAuthError(
        tokenRequest(formOf(Map.of("grant_type", "client_credentials")), null),
        401,
        "invalid_client");
    assertThat(secrets.fetches()).as("no refused request reads the signing keys").isZero();
    assertNothingSecretLogged();
  }

  @Test
  void aTokenIsExchangedForAFreshOneAsIcebergRefreshesIt() throws Exception {
    String token = accessToken(form(CLIENT_ID, SECRET, "PRINCIPAL_ROLE:reader"));
    clock.advance(Duration.ofMinutes(50));

    Answer refreshed =
        tokenRequest(
            formOf(
                Map.of(
                    "grant_type",
                    TokenEndpoint.TOKEN_EXCHANGE,
                    "subject_token",
                    token,
                    "subject_token_type",
                    OAuth2Properties.ACCESS_TOKEN_TYPE,
                    "scope",
                    "catalog")),
            null);

    assertThat(refreshed.status).isEqualTo(200);
    JWTClaimsSet claims =
        SignedJWT.parse(refreshed.json.get("access_token").asText()).getJWTClaimsSet();
    assertThat(claims.getSubject()).isEqualTo("etl");
    assertThat(claims.getStringClaim("scope"))
        .as("the roles of the subject token, not more")
        .isEqualTo("PRINCIPAL_ROLE:reader");
    assertThat(claims.getIssueTime())
        .isAfter(SignedJWT.parse(token).getJWTClaimsSet().getIssueTime());

    // a subject token not signed by Puddle's key
    RSAKey forger = new RSAKeyGenerator(2048).keyID(first.getKeyID()).generate();
    SignedJWT forged =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(first.getKeyID()).build(),
            SignedJWT.parse(token).getJWTClaimsSet());
    forged.sign(new RSASSASigner(forger));
    assertOAuthError(
        tokenRequest(
            formOf(
                Map.of(
                    "grant_type", TokenEndpoint.TOKEN_EXCHANGE,
                    "subject_token", forged.serialize(),
                    "subject_token_type", OAuth2Properties.ACCESS_TOKEN_TYPE)),
            null),
        400,
        "invalid_grant");
    assertNothingSecretLogged();
  }

  /** The token requests exactly as Iceberg's client builds them, fetch and refresh. */
  @Test
  void icebergsOwnTokenFetchAndRefreshAreUnderstood() throws Exception {
    try (HTTPClient client =
        HTTPClient.builder(Map.of())
            .uri(endpoint.uri())
            .withAuthSession(AuthSession.EMPTY)
            .build()) {
      OAuthTokenResponse fetched =
          OAuth2Util.fetchToken(
              client,
              Map.of(),
              CLIENT_ID + ":" + SECRET,
              "PRINCIPAL_ROLE:reader",
              "v1/oauth/tokens",
              Map.of());
      assertThat(fetched.scopes()).containsExactly("PRINCIPAL_ROLE:reader");

      // a refresh sends the current token as the subject, with the bearer header of the session
      OAuthTokenResponse refreshed =
          OAuth2Util.exchangeToken(
              client,
              OAuth2Util.authHeaders(fetched.token()),
              fetched.token(),
              OAuth2Properties.ACCESS_TOKEN_TYPE,
              null,
              null,
              OAuth2Properties.CATALOG_SCOPE,
              "v1/oauth/tokens",
              Map.of());
      assertThat(refreshed.scopes()).containsExactly("PRINCIPAL_ROLE:reader");
      assertThat(refreshed.token()).isNotEqualTo(fetched.token());

      // after a failed refresh Iceberg tries again with its credential as HTTP Basic
      OAuthTokenResponse retried =
          OAuth2Util.exchangeToken(
              client,
              OAuth2Util.basicAuthHeaders(CLIENT_ID + ":" + SECRET),
              refreshed.token(),
              OAuth2Properties.ACCESS_TOKEN_TYPE,
              null,
              null,
              OAuth2Properties.CATALOG_SCOPE,
              "v1/oauth/tokens",
              Map.of());
      assertThat(
              verifier(new TokenIssuer.Settings(ISSUER, "puddle", Duration.ofHours(1)))
                  .verify(retried.token()))
          .isEqualTo(new Caller(LocalTwin.REALM, "etl", false, Set.of("reader")));
    }
    assertNothingSecretLogged();
  }

  @Test
  void aRotatedSigningKeyIsPublishedBeforeItSignsAndTheOldOneWithdrawnAfterwards()
      throws Exception {
    String signedByFirst = accessToken(form(CLIENT_ID, SECRET, null));
    assertThat(listNamespaces(signedByFirst)).isEqualTo(200);
    assertThat(publishedKids()).containsExactly(first.getKeyID());

    // step 1: the new key goes second; after the 15 minutes it is published, not yet signing
    RSAKey second = new RSAKeyGenerator(2048).keyID("puddle-2-" + UUID.randomUUID()).generate();
    secrets.secret(new JWKSet(List.of(first, second)).toString(false));
    clock.advance(Duration.ofMinutes(15));
    assertThat(SignedJWT.parse(accessToken(form(CLIENT_ID, SECRET, null))).getHeader().getKeyID())
        .isEqualTo(first.getKeyID());
    assertThat(secrets.fetches()).isEqualTo(2);
    assertThat(publishedKids()).containsExactlyInAnyOrder(first.getKeyID(), second.getKeyID());

    // step 2, 15 minutes later, when every verifier has reloaded: the new key signs
    secrets.secret(new JWKSet(List.of(second, first)).toString(false));
    clock.advance(Duration.ofMinutes(15));
    String signedBySecond = accessToken(form(CLIENT_ID, SECRET, null));
    assertThat(SignedJWT.parse(signedBySecond).getHeader().getKeyID()).isEqualTo(second.getKeyID());
    assertThat(listNamespaces(signedBySecond)).isEqualTo(200);
    assertThat(listNamespaces(signedByFirst)).as("old tokens still work").isEqualTo(200);

    // step 3: the old key leaves the secret, and the published set once the issuer reloads it
    secrets.secret(new JWKSet(second).toString(false));
    clock.advance(Duration.ofMinutes(15));
    accessToken(form(CLIENT_ID, SECRET, null));
    assertThat(publishedKids()).containsExactly(second.getKeyID());
    assertThat(listNamespaces(signedByFirst))
        .as("a token of the withdrawn key, once the verifier reloaded")
        .isEqualTo(401);
    assertThat(listNamespaces(signedBySecond)).isEqualTo(200);
    assertNothingSecretLogged();
  }

  /**
   * A fresh deployment: the stack creates the secret with an empty key set, so no private key is
   * ever in a template. The first token request gives it a key, which signs, is published, and is
   * what the secret holds from then on.
   */
  @Test
  void anEmptySigningSecretGetsAKeyOnTheFirstTokenRequest() throws Exception {
    secrets.secret("{\"keys\":[]}");

    String token = accessToken(form(CLIENT_ID, SECRET, null));

    JWKSet stored = JWKSet.parse(secrets.secret());
    assertThat(secrets.puts()).isEqualTo(1);
    assertThat(stored.getKeys()).hasSize(1);
    ECKey key = stored.getKeys().getFirst().toECKey();
    assertThat(key.isPrivate()).isTrue();
    assertThat(key.getCurve()).isEqualTo(Curve.P_256);
    assertThat(SignedJWT.parse(token).getHeader().getKeyID()).isEqualTo(key.getKeyID());
    assertThat(SignedJWT.parse(token).verify(new ECDSAVerifier(key.toPublicJWK()))).isTrue();
    assertThat(publishedKids()).containsExactly(key.getKeyID());
    assertThat(
            verifier(new TokenIssuer.Settings(ISSUER, "puddle", Duration.ofHours(1)))
                .verify(token)
                .principal())
        .as("the catalog functions accept it, with the key published in the metastore")
        .isEqualTo("etl");

    String later = accessToken(form(CLIENT_ID, SECRET, null));
    assertThat(SignedJWT.parse(later).getHeader().getKeyID()).isEqualTo(key.getKeyID());
    assertThat(secrets.puts()).as("written once").isEqualTo(1);
    assertNothingSecretLogged();
    assertThat(logs.toString(StandardCharsets.UTF_8)).doesNotContain(key.getD().toString());
  }

  /** What a read or write function builds: Puddle's issuer, keys from the metastore. */
  private JwtAuthenticator verifier(TokenIssuer.Settings settings) {
    return new JwtAuthenticator(
        List.of(
            new TrustedIssuer(
                settings.verification(),
                new MetastoreKeySet(new SigningKeys(metastore.database())))),
        JwtAuthenticator.DEFAULT_CLOCK_SKEW,
        clock);
  }

  private Set<String> publishedKids() {
    return new SigningKeys(metastore.database()).published().keySet();
  }

  private int listNamespaces(String token) throws Exception {
    return TwinHttp.at(endpoint.uri())
        .bearer(token)
        .get("/v1/" + warehouse + "/namespaces")
        .statusCode();
  }

  private String get(String path) throws Exception {
    HttpResponse<String> response = TwinHttp.at(endpoint.uri()).get(path);
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  private record Answer(
      int status, String body, JsonNode json, java.net.http.HttpHeaders headers) {}

  private Answer tokenRequest(String form, String authorization) throws Exception {
    String[] headers =
        authorization == null ? new String[0] : new String[] {"Authorization", authorization};
    HttpResponse<String> response = TwinHttp.at(endpoint.uri()).tokenForm(form, headers);
    return new Answer(
        response.statusCode(), response.body(), JSON.readTree(response.body()), response.headers());
  }

  private String accessToken(String form) throws Exception {
    Answer answer = tokenRequest(form, null);
    assertThat(answer.status).as(answer.body).isEqualTo(200);
    return answer.json.get("access_token").asText();
  }

  private static String form(String id, String secret, String scope) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("grant_type", "client_credentials");
    parameters.put("client_id", id);
    parameters.put("client_secret", secret);
    if (scope != null) {
      parameters.put("scope", scope);
    }
    return formOf(parameters);
  }

  private static String formOf(Map<String, String> parameters) {
    return parameters.entrySet().stream()
        .map(
            e ->
                URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                    + "="
                    + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }

  private static ErrorResponse oauthError(Answer answer) {
    return OAuthErrorResponseParser.fromJson(answer.status, answer.body);
  }

  private static void assertOAuthError(Answer answer, int status, String error) {
    assertThat(answer.status).as(answer.body).isEqualTo(status);
    ErrorResponse parsed = oauthError(answer);
    assertThat(parsed.type()).isEqualTo(error);
    assertThat(parsed.message()).isNotBlank();
  }

  /** Neither the client secret, nor a signed token, nor an Authorization header in the logs. */
  private void assertNothingSecretLogged() {
    System.out.flush();
    System.err.flush();
    String logged = logs.toString(StandardCharsets.UTF_8);
    assertThat(logged).as("the request log is captured").contains("\"operation\":\"getToken\"");
    assertThat(logged).doesNotContain(SECRET).doesNotContain("Bearer ").doesNotContain("eyJ");
    assertThat(logged).doesNotContain(first.getPrivateExponent().toString());
  }

  /** Writes to the console as before and into the test's capture. */
  private static final class Tee extends OutputStream {
    private final OutputStream console;
    private final ByteArrayOutputStream capture;

    Tee(OutputStream console, ByteArrayOutputStream capture) {
      this.console = console;
      this.capture = capture;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      console.write(b);
      capture.write(b);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
      console.write(bytes, offset, length);
      capture.write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
      console.flush();
    }
  }
}
