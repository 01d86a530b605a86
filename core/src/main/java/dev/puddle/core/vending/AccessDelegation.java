package dev.puddle.core.vending;

import dev.puddle.core.api.Request;
import java.util.Locale;
import java.util.Set;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The {@code X-Iceberg-Access-Delegation} header: a comma-separated list of the ways a client can
 * take delegated access to storage. Puddle serves {@code vended-credentials}; a header naming only
 * other modes ({@code remote-signing}) is refused with 400, as Apache Polaris refuses it, rather
 * than answered without the access the client asked for. The legacy value {@code true} means vended
 * credentials, as older clients send it.
 */
public final class AccessDelegation {
  public static final String HEADER = "X-Iceberg-Access-Delegation";
  public static final String VENDED_CREDENTIALS = "vended-credentials";
  private static final Set<String> VENDED = Set.of(VENDED_CREDENTIALS, "true");

  private AccessDelegation() {}

  /** Whether the request asks for vended credentials; 400 if it asks only for modes not served. */
  public static boolean vendedCredentialsRequested(Request request) {
    String header = request.header(HEADER).orElse("").strip();
    if (header.isEmpty()) {
      return false;
    }
    for (String mode : header.split(",")) {
      if (VENDED.contains(mode.strip().toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    throw new BadRequestException("Unsupported access delegation mode: %s", header);
  }
}
