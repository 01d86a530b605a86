package dev.puddle.core.maintenance;

import dev.puddle.core.metastore.MaintenanceJob.Trigger;
import dev.puddle.core.metastore.MaintenanceJobs;
import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeQueue;
import dev.puddle.core.purge.PurgeSweep;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.TableMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts maintenance runs and sends them to the purge queue: on a management call, after a commit
 * that leaves a table over its snapshot threshold, and on the sweep's schedule. The job row is the
 * outbox: it is written first, and when the send fails the sweep sends it later. A table has at
 * most one unfinished run; starting another meanwhile does nothing.
 */
public final class MaintenanceOutbox implements PurgeSweep.Schedule {
  /**
   * The table or warehouse property: a commit that leaves the table with more snapshots than this
   * starts a run (when expiry is configured); 100 unless set.
   */
  public static final String COMMIT_TRIGGER_SNAPSHOTS = "maintenance.commit-trigger.snapshots";

  static final int COMMIT_TRIGGER_SNAPSHOTS_DEFAULT = 100;

  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceOutbox.class);

  /**
   * When runs start on their own.
   *
   * @param interval how long after a table's last run the schedule starts another
   * @param debounce how long after a table's last run a commit may start another
   */
  public record Settings(Duration interval, Duration debounce) {
    public static final Settings DEFAULTS =
        new Settings(Duration.ofDays(1), Duration.ofMinutes(15));
  }

  private final MaintenanceJobs jobs;
  private final PurgeQueue queue;
  private final Settings settings;

  /** An outbox over a queue; with a null queue, jobs wait for the sweep to send them. */
  public MaintenanceOutbox(MaintenanceJobs jobs, PurgeQueue queue, Settings settings) {
    this.jobs = jobs;
    this.queue = queue;
    this.settings = settings;
  }

  /** Starts a run of the table now: its job, or empty if one is already queued or running. */
  public Optional<UUID> start(UUID tableId) {
    Optional<UUID> job = jobs.start(tableId, Trigger.REQUEST);
    job.ifPresent(this::send);
    return job;
  }

  /**
   * After a commit of the table: starts a run if the committed metadata holds more snapshots than
   * the threshold and retention is configured, unless one ran within the debounce. Never fails the
   * commit, which has landed.
   */
  public void afterCommit(
      UUID tableId, TableMetadata committed, Map<String, String> warehouseProperties) {
    try {
      MaintenanceProperties properties =
          new MaintenanceProperties(committed.properties(), warehouseProperties);
      String threshold = committed.properties().get(COMMIT_TRIGGER_SNAPSHOTS);
      if (threshold == null) {
        threshold = warehouseProperties.get(COMMIT_TRIGGER_SNAPSHOTS);
      }
      int limit =
          threshold == null ? COMMIT_TRIGGER_SNAPSHOTS_DEFAULT : Integer.parseInt(threshold.trim());
      if (committed.snapshots().size() > limit && properties.expiryEnabled()) {
        jobs.startAfterCommit(tableId, settings.debounce()).ifPresent(this::send);
      }
    } catch (RuntimeException e) {
      LOG.warn("Could not start maintenance of table {} after its commit", tableId, e);
    }
  }

  @Override
  public int startDue(int limit) {
    List<UUID> started = jobs.startDue(settings.interval(), limit);
    started.forEach(this::send);
    return started.size();
  }

  private void send(UUID job) {
    if (queue == null) {
      return;
    }
    try {
      queue.send(JobKind.MAINTENANCE, job, Duration.ZERO);
      jobs.markSent(job);
    } catch (RuntimeException e) {
      LOG.warn("Could not send maintenance job {}; the sweep will send it", job, e);
    }
  }
}
