package dev.puddle.core.purge;

import dev.puddle.core.metastore.BackgroundJobs;
import dev.puddle.core.metastore.DroppedObjects;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The scheduled sweep, for every kind of job the purge queue carries: removes the dropped objects
 * whose retention has ended, recording in the same transaction the purge job of each whose drop
 * asked for a purge, and sends those jobs; sends again the jobs whose message was never sent (the
 * send after a drop or a continuation failed) or that have waited too long (the message was lost,
 * e.g. the queue was purged), and marks failed the jobs whose function died on the last receive of
 * their message, which went to the dead-letter queue without a word. Then it starts the runs a
 * {@link Schedule} says are due.
 */
public final class PurgeSweep {
  /**
   * @param grace how long a job may wait for its first send before the sweep sends it
   * @param stale how long a queued job may wait for a message before the sweep sends another; more
   *     than the queue's visibility timeout times its {@code maxReceiveCount}, so that SQS's own
   *     redeliveries come first
   * @param limit the most jobs one sweep sends
   */
  public record Settings(Duration grace, Duration stale, int limit) {}

  /**
   * What a sweep did: jobs sent again, jobs marked failed, dropped objects removed once their
   * retention ended, and jobs started on the schedule.
   */
  public record Result(int resent, int failed, int expired, int scheduled) {}

  /** Jobs the sweep starts on its own, e.g. the maintenance runs that are due. */
  @FunctionalInterface
  public interface Schedule {
    /** Starts the jobs that are due, at most {@code limit}, and returns how many it started. */
    int startDue(int limit);
  }

  private final Map<JobKind, BackgroundJobs<?>> jobs;
  private final DroppedObjects dropped;
  private final PurgeQueue queue;
  private final Settings settings;
  private final List<Schedule> schedules;

  /**
   * @param jobs the job rows of each kind the queue carries, purges among them
   * @param dropped the dropped objects kept for undrop, purged once their retention ends
   * @param schedules what else starts jobs on the sweep's schedule
   */
  public PurgeSweep(
      Map<JobKind, BackgroundJobs<?>> jobs,
      DroppedObjects dropped,
      PurgeQueue queue,
      Settings settings,
      List<Schedule> schedules) {
    if (!jobs.containsKey(JobKind.PURGE)) {
      throw new IllegalArgumentException("A sweep needs the purge jobs");
    }
    this.jobs = jobs;
    this.dropped = dropped;
    this.queue = queue;
    this.settings = settings;
    this.schedules = schedules;
  }

  public Result run() {
    // committed before any send: a send that fails leaves an unsent job for the next sweep
    DroppedObjects.Expired expired = dropped.expire(settings.limit());
    BackgroundJobs<?> purges = jobs.get(JobKind.PURGE);
    for (UUID job : expired.jobs()) {
      queue.send(JobKind.PURGE, job, Duration.ZERO);
      purges.markSent(job);
    }
    int failed = 0;
    int resent = 0;
    for (Map.Entry<JobKind, BackgroundJobs<?>> kind : jobs.entrySet()) {
      BackgroundJobs<?> rows = kind.getValue();
      failed += rows.failAbandoned(settings.stale());
      List<UUID> resend = rows.toResend(settings.grace(), settings.stale(), settings.limit());
      for (UUID job : resend) {
        queue.send(kind.getKey(), job, Duration.ZERO);
        rows.markSent(job);
      }
      resent += resend.size();
    }
    int scheduled = 0;
    for (Schedule schedule : schedules) {
      scheduled += schedule.startDue(settings.limit());
    }
    return new Result(resent, failed, expired.removed(), scheduled);
  }
}
