package dev.puddle.core.auth;

import java.util.Optional;

/**
 * The principals' client credentials, as the token endpoint checks them: a client id names one
 * principal of one realm, and its secret is stored only as a slow salted hash.
 */
public interface ClientCredentials {
  /** A principal, named by its realm and its name. */
  record PrincipalRef(String realm, String principal) {}

  /**
   * The principal whose credential {@code clientId}/{@code clientSecret} is, or empty when the id
   * is unknown or the secret does not match (the caller cannot tell which).
   */
  Optional<PrincipalRef> verify(String clientId, String clientSecret);
}
