package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.auth.PrimingIssuer;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.Map;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SnapStart priming gets its canned requests through authentication with a token of its own issuer,
 * and that issuer is trusted for the length of priming only: afterwards its tokens are refused like
 * any untrusted issuer's. The function's metastore and S3 are unreachable here; priming needs
 * neither, and authentication comes before both.
 */
class PrimingTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private CatalogWiring wiring;

  @BeforeEach
  void setUp() {
    wiring =
        CatalogWiring.fromEnvironment(
            Map.of(
                "PUDDLE_FUNCTION_GROUP", "read",
                "PUDDLE_DB_URL", "jdbc:postgresql://127.0.0.1:9/puddle",
                "PUDDLE_S3_ENDPOINT", "http://127.0.0.1:9",
                "PUDDLE_S3_ACCESS_KEY_ID", "key",
                "PUDDLE_S3_SECRET_ACCESS_KEY", "secret",
                "AWS_REGION", "us-east-1"));
  }

  @AfterEach
  void tearDown() {
    wiring.database().close();
  }

  @Test
  void primingGetsPastAuthenticationAndItsTokensAreRefusedOnceItIsOver() throws IOException {
    PrimingIssuer issuer = PrimingIssuer.generate("default", Clock.systemUTC());

    String primed = wiring.beforeCheckpoint(issuer);

    assertThat(primed).matches("\\d+ classes loaded, [1-9]\\d* canned requests replayed, .*");
    assertThat(primed).endsWith(", 0 refused as unauthenticated");

    String token = issuer.token();
    assertThatThrownBy(() -> wiring.authenticator().verify(token))
        .isInstanceOf(NotAuthorizedException.class)
        .hasMessage("Invalid bearer token: issuer not trusted");
    HttpApiResponse refused = wiring.function().handle(loadTable(token), null);
    assertThat(refused.statusCode()).isEqualTo(401);
    JsonNode error = JSON.readTree(refused.body()).get("error");
    assertThat(error.get("type").asText()).isEqualTo("NotAuthorizedException");
    assertThat(error.get("message").asText()).contains("issuer not trusted");
  }

  @Test
  void theCheckpointHookPrimesPastAuthentication() {
    assertThat(wiring.beforeCheckpoint())
        .matches(
            "\\d+ classes loaded, [1-9]\\d* canned requests replayed, 0 refused as"
                + " unauthenticated");
  }

  private static HttpApiEvent loadTable(String token) throws IOException {
    try (InputStream in = Priming.class.getResourceAsStream("events/loadTable.json")) {
      ObjectNode event = (ObjectNode) JSON.readTree(in);
      ((ObjectNode) event.get("headers")).put("authorization", "Bearer " + token);
      return JSON.treeToValue(event, HttpApiEvent.class);
    }
  }
}
