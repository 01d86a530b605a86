package dev.puddle.core.purge;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.metastore.BackgroundJobs;
import dev.puddle.core.metastore.BackgroundJobs.Busy;
import dev.puddle.core.metastore.BackgroundJobs.Claim;
import dev.puddle.core.metastore.BackgroundJobs.ClaimResult;
import dev.puddle.core.metastore.BackgroundJobs.NothingToDo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Processes one batch of purge queue messages within one invocation's time, as the purge function's
 * SQS trigger delivers them, and says which messages failed, so that only those are redelivered
 * (SQS partial batch responses). Each message names a job of one {@link JobKind}, handled by that
 * kind's {@link Lane}: its job rows and its worker.
 *
 * <p>A new step, and a new message, starts only while more than a fifth of the invocation's time is
 * left ({@code RESERVE}), so that no step runs into the function's time limit.
 *
 * <p>For each message it claims the job and works on it. A job not finished in time is checkpointed
 * and handed to a new message (a continuation), and so is a message there was no time left to
 * start: neither counts as a failed receive. A job another invocation is working on gets a delayed
 * message for when that invocation's claim ends. A message that fails is retried by SQS after its
 * visibility timeout; on its last receive before the dead-letter queue the job is marked failed.
 */
public final class PurgeProcessor {
  private static final Logger LOG = LoggerFactory.getLogger(PurgeProcessor.class);
  private static final int MAX_ERROR_LENGTH = 2000;
  private static final Duration MAX_DELAY = Duration.ofMinutes(15);

  /** The share of the invocation's time kept back from new steps. */
  static final double RESERVE = 0.2;

  /** One received message: its id, body and how often SQS has delivered it. */
  public record Delivery(String messageId, String body, int receiveCount) {}

  /** One kind of job: its rows and the worker that does it. */
  public record Lane<J>(JobKind kind, BackgroundJobs<J> jobs, JobWorker<J> worker) {}

  private final Map<JobKind, Lane<?>> lanes = new EnumMap<>(JobKind.class);
  private final PurgeQueue queue;
  private final int maxReceives;

  /**
   * @param maxReceives the queue's {@code maxReceiveCount}: a message that fails on this receive
   *     goes to the dead-letter queue
   * @param lanes one per kind of job the queue carries; a message of another kind fails
   */
  public PurgeProcessor(PurgeQueue queue, int maxReceives, List<Lane<?>> lanes) {
    this.queue = queue;
    this.maxReceives = maxReceives;
    lanes.forEach(lane -> this.lanes.put(lane.kind(), lane));
  }

  /**
   * Processes the batch by the end of the {@code invocation}, and returns the ids of the messages
   * to redeliver.
   */
  public List<String> process(List<Delivery> batch, Deadline invocation) {
    Deadline deadline = invocation.withReserve(RESERVE);
    List<String> failed = new ArrayList<>();
    boolean first = true;
    for (Delivery delivery : batch) {
      boolean started = first || deadline.allowsAnotherStep();
      first = false;
      try {
        PurgeMessage.Addressed message = PurgeMessage.addressed(delivery.body());
        Lane<?> lane = lanes.get(message.kind());
        if (lane == null) {
          throw new IllegalArgumentException("No worker for " + message.kind().wireName());
        }
        if (started) {
          process(lane, message.job(), delivery, deadline);
        } else {
          handOn(lane, message.job(), Duration.ZERO);
        }
      } catch (RuntimeException e) {
        LOG.warn("Purge queue message {} failed: {}", delivery.messageId(), describe(e), e);
        failed.add(delivery.messageId());
      }
    }
    return failed;
  }

  private <J> void process(Lane<J> lane, UUID id, Delivery delivery, Deadline deadline) {
    ClaimResult<J> result = lane.jobs().claim(id, deadline.remaining());
    switch (result) {
      case NothingToDo<J> nothing -> LOG.debug("{} job {} is done or unknown", lane.kind(), id);
      case Busy<J> busy -> handOn(lane, id, delayUntil(busy.until()));
      case Claim<J> claim -> work(lane, claim, delivery, deadline);
    }
  }

  private <J> void work(Lane<J> lane, Claim<J> claim, Delivery delivery, Deadline deadline) {
    UUID id = claim.jobId();
    boolean done;
    try {
      done = lane.worker().work(claim, deadline);
    } catch (LostClaimException e) {
      LOG.warn("{}: another invocation carries on", e.getMessage());
      return;
    } catch (RuntimeException e) {
      boolean last = delivery.receiveCount() >= maxReceives;
      lane.jobs().fail(claim, describe(e), last);
      if (last) {
        LOG.error(
            "{} job {} failed for good; its message goes to the dead-letter queue",
            lane.kind().wireName(),
            id);
      }
      throw e;
    }
    if (done) {
      lane.jobs().finish(claim);
      LOG.info("{} job {} done", lane.kind().wireName(), id);
    } else if (lane.jobs().release(claim)) {
      // the message itself is redelivered if this send fails, and the job resumes all the same
      handOn(lane, id, Duration.ZERO);
    }
  }

  /** Sends the job a new message, e.g. to continue it in a new invocation. */
  private void handOn(Lane<?> lane, UUID job, Duration delay) {
    queue.send(lane.kind(), job, delay);
    lane.jobs().markSent(job);
  }

  private static Duration delayUntil(Instant until) {
    Duration delay = Duration.between(Instant.now(), until).plusSeconds(1);
    return delay.isNegative() ? Duration.ZERO : delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay;
  }

  /** The error and its root cause, which usually says what is wrong (a parser's, an SDK's). */
  private static String describe(RuntimeException e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = e.getClass().getSimpleName() + ": " + e.getMessage();
    if (root != e) {
      text += " (caused by " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
    return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH);
  }
}
