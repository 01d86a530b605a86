package dev.puddle.contract;

import java.time.Duration;

/**
 * How the event relay's queue feeds the relay function, as the stack's event source mapping and the
 * twin's poller both do it: nudges gathered for up to {@link #WINDOW} or until {@link #BATCH_SIZE}
 * of them, then one invocation for them all. A nudge carries nothing but "events are waiting", and
 * an invocation publishes every event waiting, so under a stream of changes one invocation (its
 * claim, its reads, its {@code PutEvents} calls of up to 10 events) serves many changes instead of
 * one or two; a change's CloudEvent goes out at most about {@link #WINDOW} later than it would one
 * invocation per nudge.
 */
public final class EventRelayBatching {
  /** Nudges per invocation at most (Lambda requires a window of at least 1 s above 10). */
  public static final int BATCH_SIZE = 100;

  /** How long nudges are gathered, from the first, before the invocation. */
  public static final Duration WINDOW = Duration.ofSeconds(1);

  private EventRelayBatching() {}
}
