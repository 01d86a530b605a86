package dev.puddle.core.auth;

import dev.puddle.core.api.Request;

/** Establishes who sent a request from its credentials. */
public interface Authenticator {
  /**
   * The caller of {@code request}.
   *
   * @throws org.apache.iceberg.exceptions.NotAuthorizedException (401) when the request carries
   *     no credential this catalog accepts
   */
  Caller authenticate(Request request);

  /**
   * Treats every request as sent by {@code principal} of {@code realm} with all its roles: for
   * tests and wiring that predate authentication.
   */
  static Authenticator anonymous(String realm, String principal) {
    Caller caller = Caller.withAllRoles(realm, principal);
    return request -> caller;
  }
}
