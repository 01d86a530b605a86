package dev.puddle.bench.measure;

import dev.puddle.bench.Side;

/** Measures one side once: its part of one round. */
@FunctionalInterface
public interface Trial<T> {
  /**
   * @param round 0 for the warm-up round, then 1, 2, …; trials that create tables name them by
   *     round so that rounds never share a table
   */
  T run(Side side, int round) throws Exception;
}
