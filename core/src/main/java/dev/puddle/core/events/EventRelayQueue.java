package dev.puddle.core.events;

import java.time.Duration;

/**
 * The relay's queue: a message tells the relay function there are events to publish. A nudge may
 * fail or be lost; the events stay, and the sweep nudges again.
 */
@FunctionalInterface
public interface EventRelayQueue {
  /**
   * Sends a nudge that the relay can receive only once {@code delay} (whole seconds, at most 15
   * minutes) has passed since the queue got it.
   */
  void nudge(Duration delay);

  /** Sends a nudge the relay can receive at once: the events it is for are committed. */
  default void nudge() {
    nudge(Duration.ZERO);
  }
}
