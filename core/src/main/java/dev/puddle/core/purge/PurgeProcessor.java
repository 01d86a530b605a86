package dev.puddle.core.purge;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.metastore.PurgeJobs.Busy;
import dev.puddle.core.metastore.PurgeJobs.Claim;
import dev.puddle.core.metastore.PurgeJobs.ClaimResult;
import dev.puddle.core.metastore.PurgeJobs.Finished;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Processes one batch of purge messages within one invocation's time, as the purge function's SQS
 * trigger delivers them, and says which messages failed, so that only those are redelivered (SQS
 * partial batch responses).
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

  private final PurgeJobs jobs;
  private final PurgeWorker worker;
  private final PurgeQueue queue;
  private final int maxReceives;

  /**
   * @param maxReceives the queue's {@code maxReceiveCount}: a message that fails on this receive
   *     goes to the dead-letter queue
   */
  public PurgeProcessor(PurgeJobs jobs, PurgeWorker worker, PurgeQueue queue, int maxReceives) {
    this.jobs = jobs;
    this.worker = worker;
    this.queue = queue;
    this.maxReceives = maxReceives;
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
        UUID job = PurgeMessage.job(delivery.body());
        if (started) {
          process(job, delivery, deadline);
        } else {
          handOn(job, Duration.ZERO);
        }
      } catch (RuntimeException e) {
        LOG.warn("Purge message {} failed: {}", delivery.messageId(), describe(e), e);
        failed.add(delivery.messageId());
      }
    }
    return failed;
  }

  private void process(UUID id, Delivery delivery, Deadline deadline) {
    ClaimResult result = jobs.claim(id, deadline.remaining());
    switch (result) {
      case Finished finished -> LOG.debug("Purge job {} is done or unknown", id);
      case Busy busy -> handOn(id, delayUntil(busy.until()));
      case Claim claim -> work(claim, delivery, deadline);
    }
  }

  private void work(Claim claim, Delivery delivery, Deadline deadline) {
    UUID id = claim.job().id();
    boolean done;
    try {
      done = worker.work(claim, deadline);
    } catch (PurgeWorker.LostClaimException e) {
      LOG.warn("{}: another invocation carries on", e.getMessage());
      return;
    } catch (RuntimeException e) {
      boolean last = delivery.receiveCount() >= maxReceives;
      jobs.fail(claim, describe(e), last);
      if (last) {
        LOG.error("Purge job {} failed for good; its message goes to the dead-letter queue", id);
      }
      throw e;
    }
    if (done) {
      jobs.finish(claim);
      LOG.info("Purge job {} ({}) done", id, claim.job().identifier());
    } else if (jobs.release(claim)) {
      // the message itself is redelivered if this send fails, and the job resumes all the same
      handOn(id, Duration.ZERO);
    }
  }

  /** Sends the job a new message, e.g. to continue it in a new invocation. */
  private void handOn(UUID job, Duration delay) {
    queue.send(job, delay);
    jobs.markSent(job);
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
