package dev.puddle.core.auth;

import dev.puddle.core.api.Request;

/** Establishes who sent a request from its credentials. */
public interface Authenticator {
  /**
   * The caller of {@code request}.
   *
   * @throws org.apache.iceberg.exceptions.NotAuthorizedException (401) when the request carries no
   *     credential this catalog accepts
   */
  Caller authenticate(Request request);

  /** Drops what it keeps of issuers' keys, e.g. after a SnapStart restore; nothing by default. */
  default void clear() {}
}
