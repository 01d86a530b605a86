package dev.puddle.core.events;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.metastore.EventStore;
import dev.puddle.core.metastore.StoredEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The relay worker, after purge's pattern: the feed's rows are its outbox, and each invocation
 * (from the relay queue's nudges, the sweep's, or their redeliveries) claims the relay, publishes
 * the unpublished events in commit order a batch at a time while its time allows, marks each batch
 * published under its claim, and lets go. An invocation killed between publish and mark leaves the
 * batch unmarked: the next one publishes it again (at least once; consumers dedupe on the id).
 *
 * <p>A batch holds at most one event per object, so that a refused entry, published again later,
 * can never overtake a later event of its object that the same batch got through: each object's
 * events go out in commit order.
 */
public final class EventRelay {
  /**
   * What an invocation did: events published, and whether some are left (time ran out, or a
   * refusal).
   */
  public record Result(int published, boolean more) {}

  /** How long a claim lasts past the invocation's deadline. */
  private static final Duration LEASE_GRACE = Duration.ofSeconds(10);

  private static final int READ_AHEAD = 100;

  private final EventStore store;
  private final EventPublisher publisher;

  public EventRelay(EventStore store, EventPublisher publisher) {
    this.store = store;
    this.publisher = publisher;
  }

  /**
   * Publishes what it can by the deadline. Returns with {@code more} when another invocation holds
   * the relay: that one publishes, and its own nudge was enough.
   *
   * <p>An invocation refused the claim deletes its nudges, trusting the holder with their events.
   * So the holder, once it has let go, looks once more and takes the relay again for events that
   * committed after its last read: else an event committed between that read and the release would
   * wait for the sweep.
   */
  public Result run(Deadline deadline) {
    int published = 0;
    while (true) {
      UUID claim = UUID.randomUUID();
      Duration lease =
          (deadline.isNone() ? Duration.ofMinutes(1) : deadline.remaining()).plus(LEASE_GRACE);
      if (!store.claimRelay(claim, lease)) {
        return new Result(published, false);
      }
      Result pass;
      try {
        pass = drain(claim, deadline);
      } finally {
        store.releaseRelay(claim);
      }
      published += pass.published();
      if (pass.more() || store.unpublished(1).isEmpty()) {
        return new Result(published, pass.more());
      }
    }
  }

  /** Publishes under {@code claim} until no event is left or the deadline allows no more. */
  private Result drain(UUID claim, Deadline deadline) {
    int published = 0;
    while (deadline.allowsAnotherStep()) {
      List<StoredEvent> pending = store.unpublished(READ_AHEAD);
      if (pending.isEmpty()) {
        return new Result(published, false);
      }
      List<StoredEvent> batch = batch(pending);
      int accepted = publisher.publish(batch);
      List<Long> ids = batch.subList(0, accepted).stream().map(StoredEvent::id).toList();
      if (!store.markPublished(claim, ids)) {
        return new Result(published, true); // a later invocation took over
      }
      published += accepted;
      if (accepted < batch.size()) {
        return new Result(published, true); // refused: the redelivery tries again
      }
    }
    return new Result(published, true);
  }

  /** The first events, in order, up to the batch limit and the first second event of an object. */
  static List<StoredEvent> batch(List<StoredEvent> pending) {
    List<StoredEvent> batch = new ArrayList<>();
    Set<String> objects = new HashSet<>();
    for (StoredEvent event : pending) {
      if (batch.size() == EventPublisher.MAX_BATCH || !objects.add(objectKey(event))) {
        break;
      }
      batch.add(event);
    }
    return batch;
  }

  private static String objectKey(StoredEvent event) {
    return event.warehouseId() + "/" + CloudEvents.subject(event) + "/" + event.realm();
  }
}
