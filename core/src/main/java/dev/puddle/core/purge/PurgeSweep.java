package dev.puddle.core.purge;

import dev.puddle.core.metastore.DroppedObjects;
import dev.puddle.core.metastore.PurgeJobs;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The scheduled sweep: removes the dropped objects whose retention has ended, recording in the same
 * transaction the purge job of each whose drop asked for a purge, and sends those jobs; sends again
 * the purge jobs whose message was never sent (the send after a drop or a continuation failed) or
 * that have waited too long (the message was lost, e.g. the queue was purged), and marks failed the
 * jobs whose function died on the last receive of their message, which went to the dead-letter
 * queue without a word.
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
   * What a sweep did: jobs sent again, jobs marked failed, and dropped objects removed once their
   * retention ended.
   */
  public record Result(int resent, int failed, int expired) {}

  private final PurgeJobs jobs;
  private final DroppedObjects dropped;
  private final PurgeQueue queue;
  private final Settings settings;

  public PurgeSweep(PurgeJobs jobs, DroppedObjects dropped, PurgeQueue queue, Settings settings) {
    this.jobs = jobs;
    this.dropped = dropped;
    this.queue = queue;
    this.settings = settings;
  }

  public Result run() {
    // committed before any send: a send that fails leaves an unsent job for the next sweep
    DroppedObjects.Expired expired = dropped.expire(settings.limit());
    for (UUID job : expired.jobs()) {
      queue.send(job, Duration.ZERO);
      jobs.markSent(job);
    }
    int failed = jobs.failAbandoned(settings.stale());
    List<UUID> resend = jobs.toResend(settings.grace(), settings.stale(), settings.limit());
    for (UUID job : resend) {
      queue.send(job, Duration.ZERO);
      jobs.markSent(job);
    }
    return new Result(resend.size(), failed, expired.removed());
  }
}
