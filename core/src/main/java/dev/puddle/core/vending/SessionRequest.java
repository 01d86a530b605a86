package dev.puddle.core.vending;

import java.util.Objects;

/**
 * What a vendor is asked for: credentials of {@code role} (the IAM role to assume, or the identity
 * a non-AWS vendor vends from), for the session {@code sessionName}, reaching {@code scope}. Two
 * equal requests may share credentials.
 */
public record SessionRequest(String role, String sessionName, CredentialScope scope) {
  public SessionRequest {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(sessionName, "sessionName");
    Objects.requireNonNull(scope, "scope");
  }
}
