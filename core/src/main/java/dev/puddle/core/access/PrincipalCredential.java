package dev.puddle.core.access;

/**
 * A principal's client credential as handed out once, at creation or rotation: the secret is stored
 * only as a {@link SecretHash}.
 */
public record PrincipalCredential(String clientId, String clientSecret) {
  /** Never prints the secret. */
  @Override
  public String toString() {
    return "PrincipalCredential[clientId=" + clientId + ", clientSecret=****]";
  }
}
