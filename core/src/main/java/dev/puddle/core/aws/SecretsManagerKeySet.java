package dev.puddle.core.aws;

import com.nimbusds.jose.jwk.JWKSet;
import dev.puddle.core.auth.KeySetSource;
import java.io.IOException;
import java.text.ParseException;
import java.util.function.Supplier;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueResponse;

/**
 * The private key set of Puddle's own issuer, held in a Secrets Manager secret as a JWK set ({@code
 * {"keys":[…]}}, private parts included). A secret holding an empty set gets its first key here
 * (see {@link InitialSigningKey}); a secret holding anything else that is no JWK set is refused and
 * left alone. The client is built on first use and dropped by {@link #forget()}, with the AWS
 * credentials it cached.
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
    GetSecretValueResponse secret = client.getSecretValue(r -> r.secretId(secretId));
    JWKSet keys = parse(secret);
    if (!keys.isEmpty()) {
      return keys;
    }
    InitialSigningKey.write(client, secretId, secret.versionId());
    // sign only with what the secret holds now, whichever initialiser's write landed
    keys = parse(client.getSecretValue(r -> r.secretId(secretId)));
    if (keys.isEmpty()) {
      throw new IOException("Secret " + secretId + " still holds no key");
    }
    return keys;
  }

  private JWKSet parse(GetSecretValueResponse secret) throws IOException {
    if (secret.secretString() != null) {
      try {
        return JWKSet.parse(secret.secretString());
      } catch (ParseException e) {
        // the parser's message could quote the secret: say only where it came from
      }
    }
    throw new IOException("Secret " + secretId + " is not a JWK set");
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
