package dev.puddle.core.vending;

import dev.puddle.core.auth.Caller;

/**
 * The {@code RoleSessionName} of an {@code AssumeRole}, which CloudTrail records with every S3 call
 * made with the credentials: {@code puddle@<realm>@<principal>}, in STS's alphabet ({@code
 * [\w+=,.@-]}, other characters become {@code _}) and at most 64 characters.
 */
public final class RoleSessionName {
  private static final int MAX_LENGTH = 64;

  private RoleSessionName() {}

  public static String of(Caller caller) {
    String name = "puddle@" + caller.realm() + "@" + caller.principal();
    StringBuilder sanitized = new StringBuilder(Math.min(name.length(), MAX_LENGTH));
    for (int i = 0; i < name.length() && sanitized.length() < MAX_LENGTH; i++) {
      char c = name.charAt(i);
      boolean allowed =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "_+=,.@-".indexOf(c) >= 0;
      sanitized.append(allowed ? c : '_');
    }
    return sanitized.toString();
  }
}
