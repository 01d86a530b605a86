package dev.puddle.core.api;

import java.time.Duration;

/**
 * The moment by which work must be done: a request's answer, or an invocation's batch of purge
 * steps. Work that cannot finish by then is abandoned with a 503 rather than being cut off by the
 * platform in the middle of a commit.
 *
 * <p>Work that goes in steps keeps a reserve: a new step starts only while more than the reserve is
 * left (see {@link #withReserve}), so that no step runs into the function's time limit.
 */
public final class Deadline {
  private static final Deadline NONE = new Deadline(0, 0, true);

  private final long atNanos;
  private final long reserveNanos;
  private final boolean none;

  private Deadline(long atNanos, long reserveNanos, boolean none) {
    this.atNanos = atNanos;
    this.reserveNanos = reserveNanos;
    this.none = none;
  }

  /** No deadline: work outside requests, such as migrations. */
  public static Deadline none() {
    return NONE;
  }

  /**
   * A deadline {@code timeout} from now, e.g. Lambda's remaining time of the invocation; a negative
   * timeout has already passed.
   */
  public static Deadline in(Duration timeout) {
    return new Deadline(System.nanoTime() + timeout.toNanos(), 0, false);
  }

  /**
   * The same deadline, keeping back {@code fraction} of the time left now: {@link
   * #allowsAnotherStep} is false once less than that is left.
   */
  public Deadline withReserve(double fraction) {
    if (!(fraction >= 0 && fraction < 1)) {
      throw new IllegalArgumentException("A reserve is a fraction from 0 to 1: " + fraction);
    }
    if (none) {
      return this;
    }
    long left = Math.max(0, atNanos - System.nanoTime());
    return new Deadline(atNanos, (long) (left * fraction), false);
  }

  public boolean isNone() {
    return none;
  }

  public boolean passed() {
    return !none && atNanos - System.nanoTime() <= 0;
  }

  /** Whether there is time for another step: more than the reserve is left. */
  public boolean allowsAnotherStep() {
    return none || atNanos - System.nanoTime() > reserveNanos;
  }

  /** Milliseconds left, at least 0; {@link Long#MAX_VALUE} without a deadline. */
  public long remainingMillis() {
    if (none) {
      return Long.MAX_VALUE;
    }
    return Math.max(0, (atNanos - System.nanoTime()) / 1_000_000);
  }

  /** The time left, at least zero; {@link Long#MAX_VALUE} milliseconds without a deadline. */
  public Duration remaining() {
    if (none) {
      return Duration.ofMillis(Long.MAX_VALUE);
    }
    return Duration.ofNanos(Math.max(0, atNanos - System.nanoTime()));
  }

  @Override
  public String toString() {
    return none ? "no deadline" : remainingMillis() + " ms left";
  }
}
