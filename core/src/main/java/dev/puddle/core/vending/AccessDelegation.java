package dev.puddle.core.vending;

import dev.puddle.core.api.Request;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The {@code X-Iceberg-Access-Delegation} header: a comma-separated list of the ways a client can
 * take delegated access to storage, {@code vended-credentials} and {@code remote-signing}. The one
 * place that decides which of them a table response carries: vended credentials where the client
 * takes them and the warehouse vends them (they cost no call per S3 request), else remote signing
 * where the client takes it and the catalog signs. A header naming no mode Puddle knows, or only
 * remote signing from a catalog that does not sign, is refused with 400, as Apache Polaris refuses
 * it, rather than answered without the access the client asked for. The legacy value {@code true}
 * means vended credentials, as older clients send it.
 */
public final class AccessDelegation {
  public static final String HEADER = "X-Iceberg-Access-Delegation";
  public static final String VENDED_CREDENTIALS = "vended-credentials";
  public static final String REMOTE_SIGNING = "remote-signing";

  /** A way of delegated access to storage. */
  public enum Mode {
    VENDED_CREDENTIALS,
    REMOTE_SIGNING
  }

  private AccessDelegation() {}

  /**
   * The mode a table response carries for the request, of those {@code offered}: empty if the
   * request asks for none, or only for vended credentials where none are vended.
   */
  public static Optional<Mode> requested(Request request, Set<Mode> offered) {
    String header = request.header(HEADER).orElse("").strip();
    if (header.isEmpty()) {
      return Optional.empty();
    }
    Set<Mode> asked = EnumSet.noneOf(Mode.class);
    for (String mode : header.split(",")) {
      switch (mode.strip().toLowerCase(Locale.ROOT)) {
        case VENDED_CREDENTIALS, "true" -> asked.add(Mode.VENDED_CREDENTIALS);
        case REMOTE_SIGNING -> asked.add(Mode.REMOTE_SIGNING);
        default -> {
          // a mode of a later specification: another listed one may still be served
        }
      }
    }
    if (asked.isEmpty()) {
      throw new BadRequestException("Unsupported access delegation mode: %s", header);
    }
    for (Mode mode : Mode.values()) {
      if (asked.contains(mode) && offered.contains(mode)) {
        return Optional.of(mode);
      }
    }
    if (!asked.contains(Mode.VENDED_CREDENTIALS)) {
      throw new BadRequestException("This catalog does not sign requests: %s", header);
    }
    return Optional.empty();
  }
}
