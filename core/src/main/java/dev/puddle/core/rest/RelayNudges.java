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
 * held it that long, and the relay reads the feed only once it has received it. So a nudge covers
 * every transaction whose COMMIT returned within {@link #AHEAD_MARGIN} of that nudge's start (the
 * queue got the send after it started), whichever request sent it.
 *
 * <p>That is why a transaction relies on its {@linkplain Environment environment's} last nudge
 * ahead if that one started less than {@link #REUSE_WINDOW} ago, and sends none of its own: under a
 * stream of writes an environment sends a nudge every {@link #REUSE_WINDOW} or so instead of one
 * per write, and most writes wait for no send (a send to SQS takes longer than a commit's
 * statements). A transaction whose COMMIT returned too late for the nudge it relies on (a slow
 * COMMIT) gets one more nudge, sent at once after the COMMIT; so does one whose nudge failed. A
 * nudge for a transaction that then rolled back costs one relay invocation that finds nothing.
 */
final class RelayNudges implements RequestScope.EventsListener {
  private static final Logger LOG = LoggerFactory.getLogger(RelayNudges.class);

  /** How long the relay cannot receive a nudge sent ahead of its transaction's COMMIT. */
  static final Duration AHEAD_DELAY = Duration.ofSeconds(1);

  /** How soon after a nudge's start a COMMIT must return for that nudge to cover it. */
  static final Duration AHEAD_MARGIN = Duration.ofMillis(800);

  /**
   * How recent the environment's last nudge ahead must be for a transaction to rely on it: half the
   * margin, leaving the other half for the transaction's COMMIT to return.
   */
  static final Duration REUSE_WINDOW = AHEAD_MARGIN.dividedBy(2);

  private static final ExecutorService SENDS =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "puddle-relay-nudge");
            thread.setDaemon(true);
            return thread;
          });

  /** A nudge sent ahead of a COMMIT: when its send started ({@link System#nanoTime}), and how. */
  private record Ahead(long startNanos, Future<?> send) {
    /** Whether the send ended without sending: a send still under way has not failed. */
    boolean failed() {
      return send.state() == Future.State.FAILED || send.state() == Future.State.CANCELLED;
    }
  }

  /**
   * An execution environment's nudges: the last one sent ahead of a COMMIT, which the environment's
   * transactions rely on while it is recent and has not failed. One per catalog, so per execution
   * environment.
   */
  static final class Environment {
    private final EventRelayQueue queue;
    private final LongSupplier nanoTime;
    private Ahead last;

    /** The nudges of an environment that sends them to {@code queue}; none if it is null. */
    Environment(EventRelayQueue queue) {
      this(queue, System::nanoTime);
    }

    /** Nudges timed by {@code nanoTime}, as {@link System#nanoTime}. */
    Environment(EventRelayQueue queue, LongSupplier nanoTime) {
      this.queue = queue;
      this.nanoTime = nanoTime;
    }

    /** The nudges of a request with {@code deadline}. */
    RelayNudges forRequest(Deadline deadline) {
      return new RelayNudges(this, deadline);
    }

    /** The environment's last nudge ahead if it is recent and did not fail, else a new one. */
    private synchronized Ahead ahead() {
      long now = nanoTime.getAsLong();
      if (last == null || !within(last, now, REUSE_WINDOW) || last.failed()) {
        last = new Ahead(now, SENDS.submit(() -> queue.nudge(AHEAD_DELAY)));
      }
      return last;
    }

    private Future<?> atOnce() {
      return SENDS.submit(() -> queue.nudge());
    }
  }

  private final Environment environment;
  private final Deadline deadline;

  /** The nudges ahead the request's transactions rely on, to await and check. */
  private final List<Ahead> relied = new ArrayList<>();

  /** The nudges the request sent at once, after a COMMIT. */
  private final List<Future<?>> sent = new ArrayList<>();

  /** The nudge ahead the transaction in progress relies on, if it recorded events. */
  private Ahead ahead;

  private RelayNudges(Environment environment, Deadline deadline) {
    this.environment = environment;
    this.deadline = deadline;
  }

  /** A transaction of the request recorded events: it relies on a nudge ahead of its COMMIT. */
  @Override
  public void recorded() {
    if (environment.queue != null) {
      ahead = environment.ahead();
      if (!relied.contains(ahead)) {
        relied.add(ahead);
      }
    }
  }

  /** Sends a nudge at once unless the one relied on covers the COMMIT that just returned. */
  @Override
  public void committed() {
    if (environment.queue == null) {
      return;
    }
    boolean covered =
        ahead != null && within(ahead, environment.nanoTime.getAsLong(), AHEAD_MARGIN);
    ahead = null;
    if (!covered) {
      sent.add(environment.atOnce());
    }
  }

  /**
   * Waits for the nudges the request relies on or sent, within its deadline; sends one at once if a
   * nudge ahead it relied on failed, and logs those that failed.
   */
  void await() {
    boolean failedAhead = false;
    for (Ahead nudge : relied) {
      failedAhead |= !awaited(nudge.send());
    }
    relied.clear();
    if (failedAhead && environment.queue != null) {
      sent.add(environment.atOnce());
    }
    for (Future<?> nudge : sent) {
      awaited(nudge);
    }
    sent.clear();
  }

  /**
   * Whether {@code nudge} started less than {@code window} before {@code now}. A start that seems
   * to lie ahead (a clock that moved back, as it may across a SnapStart restore) is not within.
   */
  private static boolean within(Ahead nudge, long now, Duration window) {
    long age = now - nudge.startNanos();
    return age >= 0 && age < window.toNanos();
  }

  /** Whether {@code nudge} was sent; logs why not. */
  private boolean awaited(Future<?> nudge) {
    try {
      if (deadline.isNone()) {
        nudge.get();
      } else {
        nudge.get(Math.max(0, deadline.remainingMillis()), TimeUnit.MILLISECONDS);
      }
      return true;
    } catch (ExecutionException e) {
      LOG.warn("Could not nudge the event relay; the sweep will: {}", e.getCause().toString());
    } catch (TimeoutException e) {
      LOG.warn("Could not nudge the event relay in time; the sweep will");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }
}
