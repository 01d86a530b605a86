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
   * How the sweep treats the jobs of each kind; {@link #stale(JobKind)} is the one place that says
   * which window applies to which kind.
   *
   * @param grace how long a job may wait for its first send before the sweep sends it
   * @param stale how long a queued purge or maintenance job may wait for a message before the sweep
   *     sends another, and how long after its function died a job is marked failed; more than the
   *     purge queue's visibility timeout times its {@code maxReceiveCount}, so that SQS's own
   *     redeliveries come first
   * @param planningStale the same for a submitted scan plan's job: a plan lives only {@link
   *     dev.puddle.core.planning.PlanningSettings#LIFETIME}, so a lost message must be sent again
   *     well within it. Every receive of a planning message moves its job (claimed, then released
   *     or failed), so a window just over the planning queue's visibility timeout still lets SQS's
   *     own redelivery come first.
   * @param limit the most jobs one sweep sends
   */
  public record Settings(Duration grace, Duration stale, Duration planningStale, int limit) {
    public Settings {
      for (Duration window : List.of(grace, stale, planningStale)) {
        if (window.isNegative()) {
          throw new IllegalArgumentException("A sweep's windows are not negative: " + window);
        }
      }
    }

    /** How long a queued job of {@code kind} may wait for a message before it is sent again. */
    public Duration stale(JobKind kind) {
      return kind == JobKind.PLAN ? planningStale : stale;
    }

    /** These settings but sending at once the jobs never sent, e.g. for a queue that is new. */
    public Settings withoutGrace() {
      return new Settings(Duration.ZERO, stale, planningStale, limit);
    }
  }

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
      Duration stale = settings.stale(kind.getKey());
      failed += rows.failAbandoned(stale);
      List<UUID> resend = rows.toResend(settings.grace(), stale, settings.limit());
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
