package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.access.PrincipalCredential;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The twin's own token issuer, with tokens required: Iceberg's client signs in with its credential,
 * a client without one is refused, and the signing key kept in the data directory makes a token
 * issued before a restart valid after it.
 *
 * <p>Runs its own twin, not the shared one, since it requires tokens and restarts it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LocalTwinTokensTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final PrincipalCredential ROOT = new PrincipalCredential("spark", "spark-secret");

  @TempDir Path data;

  @Test
  void tokensAreRequiredIssuedAndSurviveARestart() throws Exception {
    String token;
    String key;
    try (LocalTwin twin = start()) {
      try (RESTCatalog catalog =
          catalog(twin, Map.of(OAuth2Properties.CREDENTIAL, "spark:spark-secret"))) {
        catalog.createNamespace(Namespace.of("signed_in"));
      }
      assertThatThrownBy(() -> catalog(twin, Map.of())).isInstanceOf(NotAuthorizedException.class);
      token = token(twin);
      assertThat(listNamespaces(twin, token)).isEqualTo(200);
      key = Files.readString(data.resolve(LocalSigningKeys.FILE));
    }

    try (LocalTwin twin = start()) {
      assertThat(Files.readString(data.resolve(LocalSigningKeys.FILE))).isEqualTo(key);
      assertThat(listNamespaces(twin, token))
          .as("a token issued before the restart")
          .isEqualTo(200);
    }
  }

  private LocalTwin start() {
    return LocalTwin.start(
        new LocalTwin.Options(data, "127.0.0.1", 0, 0, 0, 0, TestTwin.PURGE, ROOT));
  }

  private static RESTCatalog catalog(LocalTwin twin, Map<String, String> extra) {
    Map<String, String> properties = new HashMap<>(twin.clientProperties());
    properties.put(CatalogProperties.URI, twin.uri());
    properties.put(OAuth2Properties.OAUTH2_SERVER_URI, twin.uri() + "/v1/oauth/tokens");
    properties.putAll(extra);
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("twin", properties);
    return catalog;
  }

  private static String token(LocalTwin twin) throws Exception {
    HttpResponse<String> response =
        TwinHttp.at(twin.uri())
            .tokenForm(
                "grant_type=client_credentials&client_id=spark"
                    + "&client_secret=spark-secret&scope=PRINCIPAL_ROLE%3AALL");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).get("access_token").asText();
  }

  private static int listNamespaces(LocalTwin twin, String token) throws Exception {
    return TwinHttp.at(twin.uri())
        .bearer(token)
        .get("/v1/" + LocalTwin.WAREHOUSE + "/namespaces")
        .statusCode();
  }
}
