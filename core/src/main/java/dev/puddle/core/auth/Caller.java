package dev.puddle.core.auth;

import java.util.Objects;
import java.util.Set;

/**
 * Who is calling, as an authenticated bearer token says: the realm the token is bound to, the
 * principal's name in that realm, and which of the principal's roles the token activates (all of
 * them, as with the scope {@code PRINCIPAL_ROLE:ALL}, or the named ones).
 */
public record Caller(String realm, String principal, boolean allRoles, Set<String> roles) {
  public Caller {
    Objects.requireNonNull(realm, "realm");
    Objects.requireNonNull(principal, "principal");
    roles = allRoles ? Set.of() : Set.copyOf(roles);
  }

  /** A caller whose token activates every principal role the principal holds. */
  public static Caller withAllRoles(String realm, String principal) {
    return new Caller(realm, principal, true, Set.of());
  }
}
