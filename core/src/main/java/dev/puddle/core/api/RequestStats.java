package dev.puddle.core.api;

/**
 * What serving one request cost: commit attempts and conflicts, time spent in the metastore.
 * Reported in the request's log line and metrics. One request is served by one thread.
 */
public final class RequestStats {
  private int commitAttempts;
  private int commitConflicts;
  private long databaseNanos;
  private String idempotency;

  public void commitAttempted() {
    commitAttempts++;
  }

  /** A compare-and-swap found the metadata pointer moved by another commit. */
  public void commitConflicted() {
    commitConflicts++;
  }

  public void addDatabaseTime(long nanos) {
    databaseNanos += nanos;
  }

  /** Commit attempts after the first, i.e. server-side retries. */
  public int commitRetries() {
    return Math.max(0, commitAttempts - 1);
  }

  public int commitConflicts() {
    return commitConflicts;
  }

  public double databaseMillis() {
    return databaseNanos / 1e6;
  }

  /** What the request's idempotency key did: {@code executed}, {@code replayed}, or null. */
  public String idempotency() {
    return idempotency;
  }

  public void idempotency(String outcome) {
    this.idempotency = outcome;
  }
}
