package dev.puddle.core.purge;

import dev.puddle.core.metastore.PurgeJobs;
import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the purge job of a drop once the drop has committed. The job row is the outbox: when the
 * send fails, the drop still stands and the sweep sends the job later.
 */
public final class PurgeOutbox {
  private static final Logger LOG = LoggerFactory.getLogger(PurgeOutbox.class);

  private final PurgeJobs jobs;
  private final PurgeQueue queue;

  /** An outbox over a queue; with a null queue, jobs wait for the sweep to send them. */
  public PurgeOutbox(PurgeJobs jobs, PurgeQueue queue) {
    this.jobs = jobs;
    this.queue = queue;
  }

  public void dispatch(UUID job) {
    if (queue == null) {
      return;
    }
    try {
      queue.send(JobKind.PURGE, job, Duration.ZERO);
      jobs.markSent(job);
    } catch (RuntimeException e) {
      LOG.warn("Could not send purge job {}; the sweep will send it", job, e);
    }
  }
}
