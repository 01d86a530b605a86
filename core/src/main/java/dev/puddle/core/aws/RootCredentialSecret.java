package dev.puddle.core.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.metastore.access.RealmBootstrap;
import java.io.IOException;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.BadRequestException;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * A realm's root credential kept in a Secrets Manager secret, a JSON object with {@code clientId}
 * and {@code clientSecret} (as the stack has Secrets Manager generate it), so that the deployer can
 * read it and {@link RealmBootstrap} gives root exactly that credential. Read anew each time: a new
 * value of the secret is root's next credential.
 */
public final class RootCredentialSecret {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String secretId;
  private final Supplier<SecretsManagerClient> clients;

  public RootCredentialSecret(String secretId, Supplier<SecretsManagerClient> clients) {
    this.secretId = secretId;
    this.clients = clients;
  }

  /**
   * The credential the secret holds now. Fails with a message naming the secret, never quoting its
   * value, if it holds no such JSON object or a credential that cannot be stored.
   */
  public PrincipalCredential read() {
    String value;
    try (SecretsManagerClient client = clients.get()) {
      value = client.getSecretValue(r -> r.secretId(secretId)).secretString();
    }
    JsonNode json;
    try {
      json = value == null ? null : JSON.readTree(value);
    } catch (IOException e) {
      // the parser's message could quote the secret: say only where it came from
      json = null;
    }
    JsonNode clientId = json == null ? null : json.get("clientId");
    JsonNode clientSecret = json == null ? null : json.get("clientSecret");
    if (clientId == null
        || !clientId.isTextual()
        || clientSecret == null
        || !clientSecret.isTextual()) {
      throw new IllegalStateException(
          "Secret "
              + secretId
              + " is not a JSON object with the string fields \"clientId\" and \"clientSecret\"");
    }
    PrincipalCredential credential =
        new PrincipalCredential(clientId.asText(), clientSecret.asText());
    try {
      return Principals.check(credential);
    } catch (BadRequestException e) {
      // the check's message names the rule, never the value
      throw new IllegalStateException("Secret " + secretId + ": " + e.getMessage());
    }
  }
}
