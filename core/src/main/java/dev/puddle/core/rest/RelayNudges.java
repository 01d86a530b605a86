package dev.puddle.core.rest;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.api.RequestScope;
import dev.puddle.core.events.EventRelayQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nudges of one request to the event relay, sent in background so they travel while the request
 * finishes, and awaited before the request returns, since an execution environment is frozen once
 * it has answered. A failed nudge costs the request nothing: the events are in the feed, and the
 * sweep nudges.
 *
 * <p>A transaction's nudge leaves ahead of its COMMIT, as soon as the transaction records its first
 * event, so it travels while the transaction waits for its metadata file's upload and commits: it
 * is sent {@linkplain #AHEAD_DELAY delayed}, so the relay cannot receive it before the queue has
 * held it that long. If the COMMIT returned within {@link #AHEAD_MARGIN} of the send's start, the
 * events were visible before the nudge can be (the queue got the send after it started), and that
 * nudge is the transaction's. Otherwise (a slow COMMIT) the nudge might have come too early, and
 * one more is sent at once after the COMMIT. A nudge for a transaction that then rolled back costs
 * one relay invocation that finds nothing.
 */
final class RelayNudges implements RequestScope.EventsListener {
  private static final Logger LOG = LoggerFactory.getLogger(RelayNudges.class);

  /** How long the relay cannot receive a nudge sent ahead of its transaction's COMMIT. */
  static final Duration AHEAD_DELAY = Duration.ofSeconds(1);

  /** How soon after the nudge's start the COMMIT must return for that nudge to cover it. */
  static final Duration AHEAD_MARGIN = Duration.ofMillis(800);

  private static final ExecutorService SENDS =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "puddle-relay-nudge");
            thread.setDaemon(true);
            return thread;
          });

  private final EventRelayQueue queue;
  private final Deadline deadline;
  private final LongSupplier nanoTime;
  private final List<Future<?>> sent = new ArrayList<>();

  /** When the nudge ahead of the transaction in progress started ({@link System#nanoTime}). */
  private long aheadSince;

  private boolean ahead;

  /** Nudges for a request with {@code deadline}; none are sent if {@code queue} is null. */
  RelayNudges(EventRelayQueue queue, Deadline deadline) {
    this(queue, deadline, System::nanoTime);
  }

  /** Nudges timed by {@code nanoTime}, as {@link System#nanoTime}. */
  RelayNudges(EventRelayQueue queue, Deadline deadline, LongSupplier nanoTime) {
    this.queue = queue;
    this.deadline = deadline;
    this.nanoTime = nanoTime;
  }

  /** Sends the nudge ahead of the COMMIT: a transaction of the request recorded events. */
  @Override
  public void recorded() {
    if (queue != null) {
      ahead = true;
      aheadSince = nanoTime.getAsLong();
      sent.add(SENDS.submit(() -> queue.nudge(AHEAD_DELAY)));
    }
  }

  /** Sends a nudge at once unless the one sent ahead covers the COMMIT that just returned. */
  @Override
  public void committed() {
    if (queue == null) {
      return;
    }
    boolean covered = ahead && nanoTime.getAsLong() - aheadSince < AHEAD_MARGIN.toNanos();
    ahead = false;
    if (!covered) {
      sent.add(SENDS.submit(() -> queue.nudge()));
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
