package dev.puddle.core.aws;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.ResourceExistsException;

/**
 * The first key of Puddle's issuer, for a signing secret that holds an empty JWK set ({@code
 * {"keys":[]}}, as the CDK stack creates it, so that no private key is ever in a template): one EC
 * P-256 key, generated in the function and written as the secret's new current version.
 *
 * <p>Secrets Manager has no compare-and-set, but a version id, given as the {@code
 * ClientRequestToken}, can be written only once with one value. Every initialiser derives it from
 * the id of the empty version it read, so of concurrent initialisers exactly one write lands and
 * the others are refused; each then reads the secret back and signs only with what it holds.
 */
final class InitialSigningKey {
  private InitialSigningKey() {}

  /**
   * Writes a new key set over the empty version {@code emptyVersionId} of {@code secretId}, unless
   * another initialiser already did.
   */
  static void write(SecretsManagerClient client, String secretId, String emptyVersionId) {
    try {
      client.putSecretValue(
          r ->
              r.secretId(secretId)
                  .clientRequestToken(versionId(emptyVersionId))
                  .secretString(generate().toString(false)));
    } catch (ResourceExistsException e) {
      // another execution environment initialised the secret first: its key is the one
    }
  }

  /** The id of the version that replaces the empty version {@code emptyVersionId}. */
  static String versionId(String emptyVersionId) {
    return UUID.nameUUIDFromBytes(
            ("puddle-initial-signing-key:" + emptyVersionId).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  private static JWKSet generate() {
    try {
      return new JWKSet(
          new ECKeyGenerator(Curve.P_256).keyID("puddle-" + UUID.randomUUID()).generate());
    } catch (JOSEException e) {
      throw new IllegalStateException("Cannot generate a P-256 key", e);
    }
  }
}
