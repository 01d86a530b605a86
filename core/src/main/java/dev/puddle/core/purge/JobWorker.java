package dev.puddle.core.purge;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.metastore.BackgroundJobs.Claim;

/**
 * Works on one claimed job, step by step, checkpointing after each, until it is done or the
 * deadline asks to stop. At least one step is always taken, so every invocation makes progress.
 *
 * @param <J> the job row
 */
@FunctionalInterface
public interface JobWorker<J> {
  /**
   * True when the job is done, false when the deadline left no time for another step.
   *
   * @throws LostClaimException if a checkpoint finds the claim gone
   */
  boolean work(Claim<J> claim, Deadline deadline);
}
