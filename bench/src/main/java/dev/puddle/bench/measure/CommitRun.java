package dev.puddle.bench.measure;

import java.util.Locale;

/**
 * What one side's writers achieved in one round.
 *
 * @param commitsPerSecond commits the clients saw succeed, per second of the round
 * @param succeeded commits the clients saw succeed
 * @param failed commits the clients gave up on after their retries ({@code 409}s)
 * @param errors commits that ended in any other error, their outcome unknown to the client
 * @param lost commits the clients saw succeed that are not among the table's snapshots
 * @param phantoms commits the clients saw fail with a conflict that are among the snapshots all the
 *     same: a 409 must mean the change did not apply
 */
public record CommitRun(
    double commitsPerSecond, int succeeded, int failed, int errors, int lost, int phantoms) {
  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%.1f commits/s (%d ok, %d failed, %d errors, %d lost, %d phantoms)",
        commitsPerSecond,
        succeeded,
        failed,
        errors,
        lost,
        phantoms);
  }
}
