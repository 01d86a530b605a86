package dev.puddle.core.purge;

import java.time.Duration;

/**
 * How long an invocation may still run. Work goes in steps; a new step starts only while more than
 * a fifth of the invocation's time is left, so that no step runs into the function's time limit.
 */
public final class Deadline {
  private final long endNanos;
  private final long reserveNanos;

  private Deadline(long endNanos, long reserveNanos) {
    this.endNanos = endNanos;
    this.reserveNanos = reserveNanos;
  }

  /** A deadline {@code remaining} from now, e.g. Lambda's remaining time of the invocation. */
  public static Deadline after(Duration remaining) {
    return new Deadline(System.nanoTime() + remaining.toNanos(), remaining.toNanos() / 5);
  }

  public Duration remaining() {
    return Duration.ofNanos(Math.max(0, endNanos - System.nanoTime()));
  }

  /** Whether there is time for another step. */
  public boolean allowsAnotherStep() {
    return endNanos - System.nanoTime() > reserveNanos;
  }
}
