package dev.puddle.core.auth;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The principal roles a token activates, written as Apache Polaris writes them in an OAuth scope:
 * {@code PRINCIPAL_ROLE:ALL} for every role the principal holds, {@code PRINCIPAL_ROLE:<name>} for
 * one role, several separated by spaces. Iceberg clients ask for the scope {@code catalog} by
 * default, and Iceberg's remote signing client for {@code sign}: both mean all roles.
 */
public record PrincipalRoleScope(boolean allRoles, Set<String> roles) {
  public static final String PREFIX = "PRINCIPAL_ROLE:";
  public static final String ALL = PREFIX + "ALL";

  /** Iceberg's default scope, {@code OAuth2Properties.CATALOG_SCOPE}. */
  public static final String CATALOG = "catalog";

  /** The default scope of Iceberg's S3 remote signing client ({@code S3V4RestSignerClient}). */
  public static final String SIGN = "sign";

  public static final PrincipalRoleScope ALL_ROLES = new PrincipalRoleScope(true, Set.of());

  public PrincipalRoleScope {
    roles = allRoles ? Set.of() : Set.copyOf(roles);
  }

  /**
   * The roles a token request asks for: empty, {@code catalog} or {@code sign} means all.
   *
   * @return empty when the scope names anything else, or a role with an empty name
   */
  public static Optional<PrincipalRoleScope> parseRequested(String scope) {
    if (scope == null || scope.isBlank()) {
      return Optional.of(ALL_ROLES);
    }
    boolean all = false;
    Set<String> roles = new LinkedHashSet<>();
    for (String token : scope.trim().split("\\s+")) {
      if (token.equals(CATALOG) || token.equals(SIGN) || token.equals(ALL)) {
        all = true;
      } else if (token.startsWith(PREFIX) && token.length() > PREFIX.length()) {
        roles.add(token.substring(PREFIX.length()));
      } else {
        return Optional.empty();
      }
    }
    return Optional.of(all ? ALL_ROLES : new PrincipalRoleScope(false, roles));
  }

  /**
   * The roles a verified token activates. Other scope values are ignored: an external IdP's tokens
   * carry scopes of their own, and one that names no principal role activates all roles.
   */
  public static PrincipalRoleScope ofToken(String scope) {
    Set<String> roles = new LinkedHashSet<>();
    if (scope != null) {
      for (String token : scope.trim().split("\\s+")) {
        if (token.equals(ALL)) {
          return ALL_ROLES;
        }
        if (token.startsWith(PREFIX) && token.length() > PREFIX.length()) {
          roles.add(token.substring(PREFIX.length()));
        }
      }
    }
    return roles.isEmpty() ? ALL_ROLES : new PrincipalRoleScope(false, roles);
  }

  /** The scope as a token carries it. */
  public String toScope() {
    return allRoles
        ? ALL
        : roles.stream().map(role -> PREFIX + role).collect(Collectors.joining(" "));
  }

  /** The caller a token with this scope makes of a principal. */
  public Caller caller(String realm, String principal) {
    return new Caller(realm, principal, allRoles, roles);
  }
}
