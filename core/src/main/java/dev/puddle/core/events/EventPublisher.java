package dev.puddle.core.events;

import dev.puddle.core.metastore.StoredEvent;
import java.util.List;

/**
 * Where the relay publishes events as CloudEvents: Amazon EventBridge, or the twin's SQS queue.
 * Implementations live in {@code core/aws}.
 */
@FunctionalInterface
public interface EventPublisher {
  /** The most events one {@link #publish} call takes (EventBridge's {@code PutEvents} limit). */
  int MAX_BATCH = 10;

  /**
   * Publishes up to {@link #MAX_BATCH} events, in order, and returns how many of the first ones
   * were accepted. Those after the first refused one may have been accepted too: they are published
   * again, at least once in all.
   */
  int publish(List<StoredEvent> events);
}
