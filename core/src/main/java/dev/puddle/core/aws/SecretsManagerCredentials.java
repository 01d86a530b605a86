package dev.puddle.core.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.metastore.DatabaseCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The login in a Secrets Manager secret, as RDS and its rotation functions keep it: a JSON object
 * with {@code username} and {@code password}. Fetched on the first connection, not at start, cached
 * per execution environment, and fetched again when the database refuses it, so that a rotation (of
 * the password, or of the user with alternating-users rotation) needs no redeploy. The client is
 * built on first use and dropped by {@link #forget()}, together with the function credentials it
 * cached.
 */
public final class SecretsManagerCredentials implements DatabaseCredentials {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String secretId;
  private final Supplier<SecretsManagerClient> clients;
  private SecretsManagerClient client;
  private Login cached;

  public SecretsManagerCredentials(String secretId, Supplier<SecretsManagerClient> clients) {
    this.secretId = secretId;
    this.clients = clients;
  }

  @Override
  public synchronized Login current() {
    if (cached == null) {
      cached = fetch();
    }
    return cached;
  }

  @Override
  public synchronized Login refreshed() {
    cached = fetch();
    return cached;
  }

  @Override
  public synchronized void forget() {
    cached = null;
    if (client != null) {
      client.close();
      client = null;
    }
  }

  private Login fetch() {
    if (client == null) {
      client = clients.get();
    }
    String secret = client.getSecretValue(r -> r.secretId(secretId)).secretString();
    try {
      JsonNode json = JSON.readTree(secret);
      JsonNode user = json.get("username");
      JsonNode password = json.get("password");
      if (user == null || password == null) {
        throw new IllegalStateException(
            "Secret " + secretId + " has no \"username\" and \"password\" fields");
      }
      return new Login(user.asText(), password.asText());
    } catch (IOException e) {
      // the message could quote the secret: say only where it came from
      throw new UncheckedIOException(
          new IOException("Secret " + secretId + " is not a JSON object"));
    }
  }
}
