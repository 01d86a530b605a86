package dev.puddle.core.purge;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;

/**
 * Sends each kind of job to its own queue: scan plans to the planning queue, the rest to the purge
 * queue. The sweep, which re-sends every kind, sends through it.
 */
public final class KindQueues implements PurgeQueue {
  private final PurgeQueue fallback;
  private final Map<JobKind, PurgeQueue> queues = new EnumMap<>(JobKind.class);

  /**
   * @param fallback the queue of the kinds {@code queues} does not name
   */
  public KindQueues(PurgeQueue fallback, Map<JobKind, PurgeQueue> queues) {
    this.fallback = fallback;
    this.queues.putAll(queues);
  }

  @Override
  public void send(JobKind kind, UUID job, Duration delay) {
    queues.getOrDefault(kind, fallback).send(kind, job, delay);
  }
}
