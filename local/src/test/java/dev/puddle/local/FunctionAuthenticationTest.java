package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.puddle.contract.Route;
import dev.puddle.core.auth.ClientCredentials.PrincipalRef;
import dev.puddle.core.auth.PrincipalRoleScope;
import dev.puddle.core.auth.TokenIssuer;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.SigningKeys;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.functions.CatalogHandler;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A read function wired from its environment with {@code PUDDLE_TOKEN_ISSUER}: it requires bearer
 * tokens and verifies Puddle's with the keys published in the metastore, caching them; its
 * SnapStart restore hook drops that cache.
 *
 * <p>The function's metastore is a database of its own in the twin's PostgreSQL, migrated and
 * bootstrapped here: the token issuers of this test publish their keys there, which would withdraw
 * the twin's own from its metastore.
 */
class FunctionAuthenticationTest {
  private static final String ISSUER = "https://catalog.example.com";
  private static final String WAREHOUSE = "function-auth";

  private static String jdbcUrl;
  private static Database metastore;

  @BeforeAll
  static void createMetastore() {
    TestTwin.Metastore separate = TestTwin.separateMetastore(WAREHOUSE);
    jdbcUrl = separate.jdbcUrl();
    metastore = separate.database();
  }

  @AfterAll
  static void closeMetastore() {
    metastore.close();
  }

  @Test
  void theReadFunctionVerifiesPuddleTokensAndForgetsItsKeysOnRestore() throws Exception {
    String warehouse = WAREHOUSE;
    CatalogHandler read = new CatalogHandler(environment("read", warehouse));

    String first = token(issuer("fn-1-"));
    assertThat(list(read, warehouse, null).status()).isEqualTo(401);
    assertThat(list(read, warehouse, null).errorType()).isEqualTo("NotAuthorizedException");
    assertThat(list(read, warehouse, first).status()).isEqualTo(200);

    // the token function now signs with another key: within 30 s of its last load the read
    // function does not load again for the unknown key
    String second = token(issuer("fn-2-"));
    assertThat(list(read, warehouse, second).status()).isEqualTo(401);

    read.afterRestore(null);

    assertThat(list(read, warehouse, second).status()).isEqualTo(200);
  }

  @Test
  void theTokenFunctionNeedsItsSigningSecret() {
    assertThatThrownBy(() -> new CatalogHandler(environment("token", "default")))
        .hasMessageContaining("PUDDLE_TOKEN_SIGNING_SECRET_ARN");
  }

  private static TokenIssuer issuer(String kidPrefix) throws Exception {
    JWKSet keys =
        new JWKSet(new ECKeyGenerator(Curve.P_256).keyID(kidPrefix + UUID.randomUUID()).generate());
    return new TokenIssuer(
        new TokenIssuer.Settings(ISSUER, "puddle", Duration.ofHours(1)),
        () -> keys,
        new SigningKeys(metastore),
        Clock.systemUTC());
  }

  private static String token(TokenIssuer issuer) {
    return issuer
        .issue(new PrincipalRef(LocalTwin.REALM, Principals.ROOT), PrincipalRoleScope.ALL_ROLES)
        .value();
  }

  private static Invocations.Answer list(CatalogHandler handler, String warehouse, String token) {
    Map<String, String> headers = new HashMap<>();
    if (token != null) {
      headers.put("authorization", "Bearer " + token);
    }
    return Invocations.invoke(
        handler,
        Invocations.event(Route.LIST_NAMESPACES, Map.of("prefix", warehouse), null, headers),
        new LocalContext("auth"));
  }

  private static Map<String, String> environment(String group, String warehouse) {
    LocalTwin twin = TestTwin.get();
    Map<String, String> env = new HashMap<>();
    env.put("PUDDLE_FUNCTION_GROUP", group);
    env.put("PUDDLE_DB_URL", jdbcUrl);
    env.put("PUDDLE_DEFAULT_WAREHOUSE", warehouse);
    env.put("PUDDLE_S3_ENDPOINT", twin.s3Endpoint());
    env.put("PUDDLE_S3_ACCESS_KEY_ID", LocalS3.ACCESS_KEY_ID);
    env.put("PUDDLE_S3_SECRET_ACCESS_KEY", LocalS3.SECRET_ACCESS_KEY);
    env.put("AWS_REGION", LocalS3.REGION);
    env.put("PUDDLE_TOKEN_ISSUER", ISSUER);
    return env;
  }
}
