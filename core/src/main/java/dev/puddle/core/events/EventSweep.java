package dev.puddle.core.events;

import dev.puddle.core.metastore.EventStore;
import java.time.Duration;

/**
 * The feed's scheduled sweep: nudges the relay when an event has waited longer than {@code grace}
 * (its nudge was never sent or was lost), and deletes, a batch at a time, the events past their
 * warehouse's retention ({@link EventRetention}).
 */
public final class EventSweep {
  /** What a sweep did. */
  public record Result(boolean nudged, int deleted) {}

  private static final int DELETE_BATCH = 5000;
  private static final int MAX_BATCHES = 20;

  private final EventStore store;
  private final EventRelayQueue queue;
  private final Duration grace;

  public EventSweep(EventStore store, EventRelayQueue queue, Duration grace) {
    this.store = store;
    this.queue = queue;
    this.grace = grace;
  }

  public Result run() {
    boolean nudge = store.hasUnpublishedOlderThan(grace);
    if (nudge) {
      queue.nudge();
    }
    int deleted = 0;
    for (int i = 0; i < MAX_BATCHES; i++) {
      int batch = store.deleteExpired(EventRetention.DEFAULT_DAYS, DELETE_BATCH);
      deleted += batch;
      if (batch < DELETE_BATCH) {
        break;
      }
    }
    return new Result(nudge, deleted);
  }
}
