package dev.puddle.core.metastore;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * How long a warehouse keeps what is dropped from it, as its properties say: {@value #RETENTION} is
 * an ISO-8601 duration ({@code P7D}, {@code PT12H}) or {@code 0}, the default, which drops at once
 * as Iceberg's catalogs do; with {@value #PURGE_IMMEDIATELY} {@code true}, a drop with {@code
 * purgeRequested=true} skips the retention and is purged at once.
 */
public record DropRetention(Duration retention, boolean purgeImmediately) {
  public static final String RETENTION = "drop.retention";
  public static final String PURGE_IMMEDIATELY = "drop.purge-immediately";

  /** Today's behaviour: a drop removes the object at once. */
  public static final DropRetention NONE = new DropRetention(Duration.ZERO, false);

  /** The retention a warehouse's properties set; 400 if they set it wrongly. */
  public static DropRetention of(Map<String, String> properties) {
    String retention = properties.get(RETENTION);
    String immediately = properties.get(PURGE_IMMEDIATELY);
    return new DropRetention(
        retention == null ? Duration.ZERO : duration(retention.strip()),
        immediately != null && flag(immediately.strip()));
  }

  /** Whether a drop, with or without purge, keeps the object for a while. */
  public boolean keeps(boolean purge) {
    return retention.isPositive() && !(purge && purgeImmediately);
  }

  private static Duration duration(String value) {
    if (value.equals("0")) {
      return Duration.ZERO;
    }
    try {
      Duration parsed = Duration.parse(value);
      if (!parsed.isNegative()) {
        return parsed;
      }
    } catch (DateTimeParseException e) {
      // the message below says what is expected
    }
    throw new BadRequestException(
        "Invalid %s %s: expected 0 or an ISO-8601 duration such as P7D or PT12H", RETENTION, value);
  }

  private static boolean flag(String value) {
    if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(value);
    }
    throw new BadRequestException(
        "Invalid %s %s: expected true or false", PURGE_IMMEDIATELY, value);
  }
}
