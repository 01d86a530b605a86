package dev.puddle.core.api;

import java.util.function.Supplier;

/**
 * What the request being served on this thread carries down to the metastore and up to its log
 * line: its deadline, its cost counters and, once its token is verified, who sent it. Everything
 * else a step needs is passed to it. Bound for the duration of {@link #run}; code running outside a
 * request sees a scope without deadline whose counts are discarded.
 */
public final class RequestScope {
  private static final ThreadLocal<RequestScope> CURRENT = new ThreadLocal<>();

  private final Deadline deadline;
  private final RequestStats stats = new RequestStats();
  private String realm;
  private String principal;
  private EventsListener events =
      new EventsListener() {
        @Override
        public void recorded() {}

        @Override
        public void committed() {}
      };

  public RequestScope(Deadline deadline) {
    this.deadline = deadline;
  }

  /** The scope of the request on this thread, or a fresh one without deadline. */
  public static RequestScope current() {
    RequestScope scope = CURRENT.get();
    return scope != null ? scope : new RequestScope(Deadline.none());
  }

  /** Runs {@code work} with this scope bound to the current thread. */
  public <T> T run(Supplier<T> work) {
    RequestScope previous = CURRENT.get();
    CURRENT.set(this);
    try {
      return work.get();
    } finally {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    }
  }

  public Deadline deadline() {
    return deadline;
  }

  public RequestStats stats() {
    return stats;
  }

  /** The request was authenticated as {@code principal} of {@code realm}. */
  public void authenticated(String realm, String principal) {
    this.realm = realm;
    this.principal = principal;
  }

  /** The realm the request's token is bound to; null unless it was authenticated. */
  public String realm() {
    return realm;
  }

  /** What the request does as its transactions record change events and commit them. */
  public interface EventsListener {
    /** A transaction of the request recorded its first event; it has not committed yet. */
    void recorded();

    /** A transaction of the request has committed the events it recorded. */
    void committed();
  }

  /**
   * Who hears of the request's change events: the relay's nudges (the last listener given replaces
   * the one before).
   */
  public void listenToEvents(EventsListener listener) {
    this.events = listener;
  }

  /** A transaction of the request recorded its first change event, not yet committed. */
  public void eventsRecorded() {
    events.recorded();
  }

  /** A transaction of the request has committed change events. */
  public void eventsCommitted() {
    events.committed();
  }

  /** The principal the request's token names; null unless it was authenticated. */
  public String principal() {
    return principal;
  }
}
