package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.JWKSet;
import dev.puddle.core.aws.SecretsManagerKeySet;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The token function's signing secret, as the CDK stack creates it (an empty JWK set), against the
 * real SDK client and a loopback endpoint speaking Secrets Manager's protocol: token functions
 * starting at once agree on one key, and a secret holding something else is never overwritten.
 */
class SigningKeyInitialisationTest {
  private static final String ARN =
      "arn:aws:secretsmanager:us-east-1:000000000000:secret:puddle-token-signing-AbCdEf";

  private final SecretsManagerEndpoint secrets = new SecretsManagerEndpoint(ARN);
  private final ExecutorService executor = Executors.newFixedThreadPool(2);

  @AfterEach
  void tearDown() {
    executor.shutdownNow();
    secrets.close();
  }

  @Test
  void executionEnvironmentsInitialisingAtOnceSignWithTheSameKey() throws Exception {
    secrets.secret("{\"keys\":[]}");
    // two execution environments, each with its own client, both reading the empty set first
    SecretsManagerKeySet first = new SecretsManagerKeySet(ARN, secrets::client);
    SecretsManagerKeySet second = new SecretsManagerKeySet(ARN, secrets::client);
    secrets.holdReads(2);

    List<JWKSet> loaded =
        List.of(
                CompletableFuture.supplyAsync(() -> load(first), executor),
                CompletableFuture.supplyAsync(() -> load(second), executor))
            .stream()
            .map(CompletableFuture::join)
            .toList();

    JWKSet stored = JWKSet.parse(secrets.secret());
    assertThat(secrets.puts()).as("both saw the empty set and wrote a key").isEqualTo(2);
    assertThat(secrets.versions()).as("one write landed, the other was refused").isEqualTo(2);
    assertThat(stored.getKeys()).hasSize(1);
    assertThat(loaded)
        .allSatisfy(keys -> assertThat(keys.toString(false)).isEqualTo(stored.toString(false)));
    first.forget();
    second.forget();
  }

  @Test
  void aSecretThatIsNoKeySetIsRefusedAndLeftAlone() {
    String value = "k3Jx9vQ2mZ7pL4tR8wY1nB6cF0hD5sG3aE2uI9oK7jM4xN8q";
    secrets.secret(value);
    SecretsManagerKeySet keys = new SecretsManagerKeySet(ARN, secrets::client);

    assertThatThrownBy(keys::load)
        .isInstanceOf(IOException.class)
        .hasMessage("Secret " + ARN + " is not a JWK set");
    assertThat(secrets.secret()).isEqualTo(value);
    assertThat(secrets.puts()).isZero();
    assertThat(secrets.versions()).isEqualTo(1);
    keys.forget();
  }

  private static JWKSet load(SecretsManagerKeySet keys) {
    try {
      return keys.load();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
