package dev.puddle.core.rest;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.events.EventRelayQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nudges of one request to the event relay: one sent in background as soon as a transaction of
 * the request has committed events, so it travels while the request finishes (its idempotency
 * record, its response), and awaited before the request returns, since an execution environment is
 * frozen once it has answered. A failed nudge costs the request nothing: the events are in the
 * feed, and the sweep nudges.
 */
final class RelayNudges {
  private static final Logger LOG = LoggerFactory.getLogger(RelayNudges.class);

  private static final ExecutorService SENDS =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "puddle-relay-nudge");
            thread.setDaemon(true);
            return thread;
          });

  private final EventRelayQueue queue;
  private final Deadline deadline;
  private final List<Future<?>> sent = new ArrayList<>();

  /** Nudges for a request with {@code deadline}; none are sent if {@code queue} is null. */
  RelayNudges(EventRelayQueue queue, Deadline deadline) {
    this.queue = queue;
    this.deadline = deadline;
  }

  /** Starts a nudge: a transaction of the request has committed events. */
  void start() {
    if (queue != null) {
      sent.add(SENDS.submit(queue::nudge));
    }
  }

  /** Waits for the nudges started, within the request's deadline; logs those that failed. */
  void await() {
    for (Future<?> nudge : sent) {
      try {
        if (deadline.isNone()) {
          nudge.get();
        } else {
          nudge.get(Math.max(0, deadline.remainingMillis()), TimeUnit.MILLISECONDS);
        }
      } catch (ExecutionException e) {
        LOG.warn("Could not nudge the event relay; the sweep will: {}", e.getCause().toString());
      } catch (TimeoutException e) {
        LOG.warn("Could not nudge the event relay in time; the sweep will");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    sent.clear();
  }
}
