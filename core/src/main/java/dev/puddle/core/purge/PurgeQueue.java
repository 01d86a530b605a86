package dev.puddle.core.purge;

import java.time.Duration;
import java.util.UUID;

/**
 * Where background jobs go to reach the purge function: the SQS purge queue. A send may fail or be
 * lost; the job row stays, and the sweep sends it again.
 */
@FunctionalInterface
public interface PurgeQueue {
  /** Sends a message for the job, to be delivered after {@code delay} (at most 15 minutes). */
  void send(JobKind kind, UUID job, Duration delay);
}
