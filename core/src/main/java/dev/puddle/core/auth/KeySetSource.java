package dev.puddle.core.auth;

import com.nimbusds.jose.jwk.JWKSet;
import java.io.IOException;

/** Where a set of keys is loaded from: an issuer's JWKS URL, the metastore, a secret. */
@FunctionalInterface
public interface KeySetSource {
  /**
   * Loads the current set.
   *
   * @throws IOException when the keys cannot be loaded now; the caller keeps what it has
   */
  JWKSet load() throws IOException;

  /** Drops what loading holds on to (clients, their credentials): for a SnapStart restore. */
  default void forget() {}
}
