package dev.puddle.bench.measure;

import java.time.Duration;

/**
 * How long one side may be measured in one round, and at most how many operations it may run:
 * every measuring loop stops at whichever bound comes first.
 */
public record Budget(Duration duration, int maxOperations) {
  /** A deadline for a loop starting now, in {@link System#nanoTime()} terms. */
  public long deadlineFromNow() {
    return System.nanoTime() + duration.toNanos();
  }
}
