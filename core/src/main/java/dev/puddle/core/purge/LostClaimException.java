package dev.puddle.core.purge;

import java.util.UUID;

/** Thrown when another invocation took over a job: this one must stop touching it. */
public final class LostClaimException extends RuntimeException {
  public LostClaimException(UUID job) {
    super("Lost the claim on job " + job);
  }
}
