package dev.puddle.core.events;

/**
 * The relay's queue: a message after a change committed tells the relay function there are events
 * to publish. A nudge may fail or be lost; the events stay, and the sweep nudges again.
 */
@FunctionalInterface
public interface EventRelayQueue {
  void nudge();
}
