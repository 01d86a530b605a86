package dev.puddle.core.api;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the request being served on this thread carries down to the metastore: its deadline, its
 * cost counters and, for a request with an idempotency key, the statement that records in each
 * database transaction that the request took effect; and, once its token is verified, who sent it,
 * for the request's log line. Bound for the duration of {@link #run}; code running outside a
 * request sees a scope without deadline whose counts are discarded.
 */
public final class RequestScope {
  /** Joins a database transaction of the request just before it commits. */
  @FunctionalInterface
  public interface CommitParticipant {
    void beforeCommit(Connection connection) throws SQLException;
  }

  private static final ThreadLocal<RequestScope> CURRENT = new ThreadLocal<>();

  private final Deadline deadline;
  private final RequestStats stats = new RequestStats();
  private final Map<Object, Object> memo = new HashMap<>();
  private final Map<Object, Object> readAhead = new HashMap<>();
  private CommitParticipant participant;
  private String realm;
  private String principal;

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

  /**
   * What {@code compute} gives for {@code key}, computed once for this request: state read once
   * and shared by the parts of a request that need it (a caller's grants, say), and never by
   * another request. Code outside a request computes every time.
   */
  @SuppressWarnings("unchecked")
  public <T> T memo(Object key, Supplier<T> compute) {
    if (CURRENT.get() != this) {
      return compute.get();
    }
    Object value = memo.get(key);
    if (value == null) {
      value = compute.get();
      memo.put(key, value);
    }
    return (T) value;
  }

  /**
   * Keeps {@code value}, read ahead of its time in a round trip the request made anyway, for the
   * one read that asks for {@code key} next ({@link #takeReadAhead}). Code outside a request
   * keeps nothing.
   */
  public void readAhead(Object key, Object value) {
    if (CURRENT.get() == this) {
      readAhead.put(key, value);
    }
  }

  /**
   * The value read ahead for {@code key}, or null; once only, so that a read that follows a write
   * of the same request (a commit retried after a conflict, say) reads afresh.
   */
  @SuppressWarnings("unchecked")
  public <T> T takeReadAhead(Object key) {
    return (T) readAhead.remove(key);
  }

  public Deadline deadline() {
    return deadline;
  }

  public RequestStats stats() {
    return stats;
  }

  public void participate(CommitParticipant participant) {
    this.participant = participant;
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

  /** The principal the request's token names; null unless it was authenticated. */
  public String principal() {
    return principal;
  }

  /** Lets the participant, if any, join a transaction of this request before it commits. */
  public void beforeCommit(Connection connection) throws SQLException {
    if (participant != null) {
      participant.beforeCommit(connection);
    }
  }
}
