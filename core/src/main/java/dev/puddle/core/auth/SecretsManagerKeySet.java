package dev.puddle.core.auth;

import com.nimbusds.jose.jwk.JWKSet;
import java.io.IOException;
import java.text.ParseException;
import java.util.function.Supplier;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The private key set of Puddle's own issuer, held in a Secrets Manager secret as a JWK set ({@code
 * {"keys":[…]}}, private parts included). The client is built on first use and dropped by {@link
 * #forget()}, with the AWS credentials it cached.
 */
public final class SecretsManagerKeySet implements KeySetSource {
  private final String secretId;
  private final Supplier<SecretsManagerClient> clients;
  private SecretsManagerClient client;

  public SecretsManagerKeySet(String secretId, Supplier<SecretsManagerClient> clients) {
    this.secretId = secretId;
    this.clients = clients;
  }

  @Override
  public synchronized JWKSet load() throws IOException {
    if (client == null) {
      client = clients.get();
    }
    String secret = client.getSecretValue(r -> r.secretId(secretId)).secretString();
    try {
      return JWKSet.parse(secret);
    } catch (ParseException e) {
      // the parser's message could quote the secret: say only where it came from
      throw new IOException("Secret " + secretId + " is not a JWK set");
    }
  }

  /** Closes the client: after a SnapStart restore its credentials belong to another time. */
  @Override
  public synchronized void forget() {
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
