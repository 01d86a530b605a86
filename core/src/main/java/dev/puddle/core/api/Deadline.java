package dev.puddle.core.api;

import java.time.Duration;

/**
 * The moment by which a request must be answered. Work that cannot finish by then is abandoned with
 * a 503 rather than being cut off by the platform in the middle of a commit.
 */
public final class Deadline {
  private static final Deadline NONE = new Deadline(0, true);

  private final long atNanos;
  private final boolean none;

  private Deadline(long atNanos, boolean none) {
    this.atNanos = atNanos;
    this.none = none;
  }

  /** No deadline: work outside requests, such as migrations. */
  public static Deadline none() {
    return NONE;
  }

  /** A deadline {@code timeout} from now; a negative timeout has already passed. */
  public static Deadline in(Duration timeout) {
    return new Deadline(System.nanoTime() + timeout.toNanos(), false);
  }

  public boolean isNone() {
    return none;
  }

  public boolean passed() {
    return !none && atNanos - System.nanoTime() <= 0;
  }

  /** Milliseconds left, at least 0; {@link Long#MAX_VALUE} without a deadline. */
  public long remainingMillis() {
    if (none) {
      return Long.MAX_VALUE;
    }
    return Math.max(0, (atNanos - System.nanoTime()) / 1_000_000);
  }

  @Override
  public String toString() {
    return none ? "no deadline" : remainingMillis() + " ms left";
  }
}
