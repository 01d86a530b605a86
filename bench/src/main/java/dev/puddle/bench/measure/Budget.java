package dev.puddle.bench.measure;

import java.time.Duration;

/**
 * How long one side is measured in one round, and how many operations that may take: a loop runs
 * for {@code duration}, longer if it has not yet done {@code minOperations} (slow operations still
 * get enough samples for a percentile), but never past four times {@code duration} nor beyond
 * {@code maxOperations}.
 */
public record Budget(Duration duration, int minOperations, int maxOperations) {
  private static final int HARD_LIMIT_FACTOR = 4;

  /** Whether a loop that started at {@code startNanos} and has done {@code done} goes on. */
  public boolean more(long startNanos, int done) {
    long elapsed = System.nanoTime() - startNanos;
    if (done >= maxOperations || elapsed >= HARD_LIMIT_FACTOR * duration.toNanos()) {
      return false;
    }
    return elapsed < duration.toNanos() || done < minOperations;
  }
}
