package dev.puddle.core.planning;

import dev.puddle.core.metastore.ScanPlanJobs;
import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeQueue;
import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a submitted plan's job to the planning queue once the plan has committed. The job row is
 * the outbox: when the send fails, the plan still stands, submitted, and the sweep sends it later.
 */
public final class PlanningOutbox {
  private static final Logger LOG = LoggerFactory.getLogger(PlanningOutbox.class);

  private final ScanPlanJobs jobs;
  private final PurgeQueue queue;

  /** An outbox over a queue; with a null queue, plans wait for the sweep to send them. */
  public PlanningOutbox(ScanPlanJobs jobs, PurgeQueue queue) {
    this.jobs = jobs;
    this.queue = queue;
  }

  public void dispatch(UUID plan) {
    if (queue == null) {
      return;
    }
    try {
      queue.send(JobKind.PLAN, plan, Duration.ZERO);
      jobs.markSent(plan);
    } catch (RuntimeException e) {
      LOG.warn("Could not send scan plan {}; the sweep will send it", plan, e);
    }
  }
}
