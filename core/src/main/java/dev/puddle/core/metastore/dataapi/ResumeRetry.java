package dev.puddle.core.metastore.dataapi;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import software.amazon.awssdk.services.rdsdata.model.DatabaseResumingException;

/**
 * Waits out an Aurora Serverless v2 cluster that is resuming from zero capacity: a call that fails
 * with {@link DatabaseResumingException} did not run, so it is repeated, with exponential back-off
 * and jitter, until it succeeds or the wait would pass its limit: {@code maxWait}, or less for a
 * call of a connection bounded by its request's deadline (see {@link DataApiClient#limitedTo}).
 * Then the caller gets a connection failure (SQLSTATE 08001), which the catalog answers with 503
 * while there is still time to answer at all.
 */
final class ResumeRetry {
  private final Duration maxWait;
  private final Duration firstBackoff;
  private final Duration maxBackoff;

  ResumeRetry(Duration maxWait, Duration firstBackoff, Duration maxBackoff) {
    this.maxWait = maxWait;
    this.firstBackoff = firstBackoff;
    this.maxBackoff = maxBackoff;
  }

  <T> T call(Supplier<T> call) throws SQLException {
    return call(call, maxWait);
  }

  /** As {@link #call(Supplier)}, waiting at most {@code wait} (if shorter than the usual). */
  <T> T call(Supplier<T> call, Duration wait) throws SQLException {
    long start = System.nanoTime();
    long deadline = start + Math.min(wait.toNanos(), maxWait.toNanos());
    long backoff = firstBackoff.toNanos();
    int attempts = 0;
    while (true) {
      attempts++;
      try {
        return call.get();
      } catch (DatabaseResumingException e) {
        long sleep = backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
        if (System.nanoTime() + sleep >= deadline) {
          throw new SQLTransientConnectionException(
              "The metastore database is still resuming after "
                  + attempts
                  + " attempts in "
                  + Duration.ofNanos(System.nanoTime() - start).toMillis()
                  + " ms",
              DataApiErrors.UNABLE_TO_CONNECT,
              e);
        }
        pause(sleep);
        backoff = Math.min(backoff * 2, maxBackoff.toNanos());
      }
    }
  }

  private static void pause(long nanos) throws SQLException {
    try {
      Thread.sleep(Duration.ofNanos(nanos));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLTransientConnectionException(
          "Interrupted waiting for the metastore database to resume",
          DataApiErrors.UNABLE_TO_CONNECT,
          e);
    }
  }
}
