package dev.puddle.core.metastore;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The rows of one kind of background job (purge, maintenance) as the purge queue's processor and
 * sweep handle them: claimed by one invocation at a time, ended by it, re-sent by the sweep.
 *
 * <p>An invocation works on a job only while it holds the job's claim, which lasts no longer than
 * the invocation can run. Every update it makes is fenced by its claim id, so an invocation that
 * outlived its claim can no longer change the row.
 *
 * @param <J> the job row
 */
public interface BackgroundJobs<J> {
  /** The outcome of trying to claim a job. */
  sealed interface ClaimResult<J> permits Claim, Busy, NothingToDo {}

  /** The job is this invocation's until {@code claim} ends. */
  record Claim<J>(J job, UUID jobId, UUID claimId) implements ClaimResult<J> {}

  /** Nothing to do: the job is done, or there is no such job. */
  record NothingToDo<J>() implements ClaimResult<J> {}

  /** Another invocation holds the job until {@code until}. */
  record Busy<J>(Instant until) implements ClaimResult<J> {}

  /**
   * Claims a job for {@code lease}, the time the invocation can still run. Queued and failed jobs
   * can be claimed (a failed one when its message is redriven), and running ones whose claim has
   * expired: the invocation that held it died, which the job's last error then says.
   */
  ClaimResult<J> claim(UUID id, Duration lease);

  /** Ends a chunk that did not finish the job: it waits, queued, for its continuation message. */
  boolean release(Claim<J> claim);

  boolean finish(Claim<J> claim);

  /**
   * Records a failed attempt. On the message's last receive the job has failed for good (its
   * message goes to the dead-letter queue); before that it waits for the message's redelivery.
   */
  boolean fail(Claim<J> claim, String error, boolean lastReceive);

  /** Notes that a message for the job was sent. */
  void markSent(UUID id);

  /**
   * Jobs whose message must be sent again: one was never sent (the first send failed, or a
   * continuation's) for longer than {@code grace}, or a queued job has not moved for longer than
   * {@code stale}. Oldest first.
   */
  List<UUID> toResend(Duration grace, Duration stale, int limit);

  /**
   * Marks failed the jobs whose invocation died more than {@code stale} ago without SQS handing the
   * job to another: their message went to the dead-letter queue on its last receive.
   */
  int failAbandoned(Duration stale);

  /**
   * Makes every unfinished job wait for a new message, for a queue that lost its messages (the
   * local twin's lives in memory). The sweep then sends them.
   */
  int requeueUnfinished();
}
