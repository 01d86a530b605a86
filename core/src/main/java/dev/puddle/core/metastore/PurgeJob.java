package dev.puddle.core.metastore;

import dev.puddle.core.metastore.CatalogObject.Kind;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/**
 * A purge of a dropped table or view: what to delete, and where the purge stands. Keyed by the
 * dropped object's id, so every message, retry and re-send of one drop addresses the same job.
 */
public record PurgeJob(
    UUID id,
    String realm,
    long warehouseId,
    Kind kind,
    String identifier,
    String location,
    boolean ownsLocation,
    String metadataLocation,
    State state,
    Phase phase,
    String resumeAt,
    int attempts,
    long deletedFiles,
    long skippedFiles,
    String lastError,
    Instant createdAt,
    Instant updatedAt,
    Instant sentAt,
    Instant finishedAt) {

  /** Where a job stands as a whole. */
  public enum State {
    /** Waiting for a message to be delivered: new, between chunks, or after a failed attempt. */
    QUEUED,
    /** An invocation of the purge function is working on it. */
    RUNNING,
    DONE,
    /** Gave up: its message went to the dead-letter queue. A redrive retries it. */
    FAILED;

    public String sql() {
      return name().toLowerCase(Locale.ROOT);
    }

    static State fromSql(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  /** The steps of a purge, in order. Reading comes first, since deleting removes what is read. */
  public enum Phase {
    /** Read the metadata and manifests; note the files they reach outside the own location. */
    REACHABLE,
    /** Delete the noted files outside the location, where the warehouse allows it. */
    OUTSIDE,
    /** Delete every object under the object's own location. */
    LOCATION,
    DONE;

    public String sql() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Phase fromSql(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  /** Where a purge resumes, and what its last step added to the counts. */
  public record Checkpoint(Phase phase, String resumeAt, long deleted, long skipped) {}
}
