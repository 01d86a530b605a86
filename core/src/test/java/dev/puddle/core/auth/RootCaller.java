package dev.puddle.core.auth;

/**
 * For tests that drive the catalog in-process and are not about authentication: every request runs
 * as the realm's {@code root} with all its roles, as a token of root's would make it.
 */
public final class RootCaller {
  /** The principal every realm's bootstrap creates. */
  public static final String ROOT = "root";

  private RootCaller() {}

  /** Authenticates every request as root of {@code realm}. */
  public static Authenticator of(String realm) {
    Caller caller = Caller.withAllRoles(realm, ROOT);
    return request -> caller;
  }
}
