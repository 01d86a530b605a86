package dev.puddle.core.metastore;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.api.RequestScope;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Connections to the metastore, and work run on them under the request's deadline ({@link
 * RequestScope}): reads, autocommit work and transactions, each reported as {@link
 * ServiceUnavailableException} when nothing was committed or {@link CommitStateUnknownException}
 * when the connection failed while {@code COMMIT} was on its way. How connections are kept,
 * replaced and timed out is in {@code docs/operations/lambda-runtime.md}.
 */
public final class Database implements AutoCloseable {

  /** Work done on a connection. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Work of a change on a connection, recording its events as it makes them. */
  @FunctionalInterface
  public interface ChangeWork<T> {
    T run(Connection connection, ChangeEvents events) throws SQLException;
  }

  /** Opens new connections. */
  @FunctionalInterface
  public interface ConnectionFactory {
    Connection open() throws SQLException;

    /**
     * Whether a transaction on these connections begins with {@code SET LOCAL statement_timeout}
     * from the deadline, so that the server cancels a statement still running at the deadline and
     * rolls back. Only for connections no pooler watches (the Data API): RDS Proxy pins a session
     * to its database connection on any {@code SET} ({@code
     * docs/operations.md#rds-proxy-and-pinning}), so pgjdbc connections are bounded by their socket
     * timeout and the role's statement-timeout ceiling instead, and send no {@code SET} at all.
     */
    default boolean timesOutTransactionsOnServer() {
      return false;
    }

    /**
     * Whether each statement is a request of its own to a service that bills and throttles by the
     * request (the Data API), so that work which looks at a row again and again should look
     * sparingly.
     */
    default boolean billsEachStatement() {
      return false;
    }
  }

  private enum Mode {
    /** Autocommit, may run again on a new connection: reads. */
    READ,
    /** Autocommit, never run again. */
    AUTOCOMMIT,
    /** One transaction, never run again. */
    TRANSACTION
  }

  /** A connection and whether it was kept from an earlier request (and so may be stale). */
  private record Lease(Connection connection, boolean kept) {}

  /** The work never started because the kept connection it was given is broken. */
  private static final class StaleConnection extends Exception {
    StaleConnection(SQLException cause) {
      super(cause);
    }

    SQLException sqlCause() {
      return (SQLException) getCause();
    }
  }

  private static final long ACQUIRE_TIMEOUT_MILLIS = 25_000;

  /** How long past the statement timeout the socket waits before giving up on the server. */
  private static final int NETWORK_GRACE_MILLIS = 500;

  private static final Executor DIRECT = Runnable::run;

  private final ConnectionFactory factory;
  private final boolean serverTimeouts;
  private final Semaphore permits;
  private final Deque<Connection> idle = new ArrayDeque<>();

  public Database(ConnectionFactory factory, int maxConnections) {
    this.factory = factory;
    this.serverTimeouts = factory.timesOutTransactionsOnServer();
    this.permits = new Semaphore(maxConnections, true);
  }

  /**
   * Runs read-only work in autocommit mode. If the kept connection turns out to be broken, the work
   * runs once more on a new connection: reading twice is harmless.
   */
  public <T> T read(Work<T> work) {
    return run(work, Mode.READ);
  }

  /** Whether each statement is billed as a request of its own: see {@link ConnectionFactory}. */
  public boolean billsEachStatement() {
    return factory.billsEachStatement();
  }

  /** Runs work in autocommit mode: each statement is its own transaction. Never run twice. */
  public <T> T autocommit(Work<T> work) {
    return run(work, Mode.AUTOCOMMIT);
  }

  /**
   * Runs work in one database transaction, committed if it returns and rolled back if it throws.
   * The work runs at most once: if it fails, nothing is retried here.
   */
  public <T> T transaction(Work<T> work) {
    return run(work, Mode.TRANSACTION);
  }

  /**
   * {@link #transaction(Work)} for a change of the catalog: after the work and before the commit,
   * the {@code change}'s idempotency mark is written, the claim of a keyed request's key if the
   * transaction changed anything (with the request's response, if the version the transaction makes
   * current already decides it), and then the events the work recorded ({@link EventStore#insert}),
   * whose statement takes the event feed's lock: so the lock is held for that statement and the
   * COMMIT only, and an attempt that finds its key taken rolls back before it queues on the lock.
   * Events of a transaction that rolls back are never written; once a transaction's events are
   * committed, the request's scope hears of it ({@link RequestScope#eventsCommitted}).
   */
  public <T> T transaction(Change change, ChangeWork<T> work) {
    boolean[] wroteEvents = {false};
    T result =
        run(
            connection -> {
              ChangeEvents events = new ChangeEvents();
              T done = work.run(connection, events);
              // the events last: their statement takes the event feed's lock, which every writer
              // of the warehouse queues on until this COMMIT
              change.mark().write(connection, events.version());
              EventStore.insert(connection, change, events.list());
              wroteEvents[0] = !events.list().isEmpty();
              return done;
            },
            Mode.TRANSACTION);
    if (wroteEvents[0]) {
      RequestScope.current().eventsCommitted();
    }
    return result;
  }

  private <T> T run(Work<T> work, Mode mode) {
    RequestScope scope = RequestScope.current();
    Deadline deadline = scope.deadline();
    long start = System.nanoTime();
    try {
      for (int attempt = 0; ; attempt++) {
        if (deadline.passed()) {
          throw deadlinePassed();
        }
        Lease lease = acquire(deadline);
        try {
          return runOn(lease, work, mode, scope);
        } catch (StaleConnection e) {
          // nothing of the work ran on the broken connection: try a new one, once
          if (attempt > 0) {
            throw SqlErrors.translate(e.sqlCause());
          }
        }
      }
    } finally {
      scope.stats().addDatabaseTime(System.nanoTime() - start);
    }
  }

  private <T> T runOn(Lease lease, Work<T> work, Mode mode, RequestScope scope)
      throws StaleConnection {
    Connection connection = lease.connection();
    Deadline deadline = scope.deadline();
    boolean healthy = false;
    boolean workStarted = false;
    boolean commitSent = false;
    try {
      boolean autocommit = mode != Mode.TRANSACTION;
      if (connection.getAutoCommit() != autocommit) {
        connection.setAutoCommit(autocommit);
      }
      boolean serverTimeout = serverTimeouts && !autocommit;
      connection.setNetworkTimeout(DIRECT, networkTimeout(deadline, serverTimeout));
      if (serverTimeout) {
        // sent with BEGIN in one round trip; it also finds a broken connection before any work
        try (Statement statement = connection.createStatement()) {
          statement.execute("SET LOCAL statement_timeout = " + statementTimeout(deadline));
        }
      } else if (!autocommit && lease.kept()) {
        // sent with BEGIN in one round trip: finds a kept connection broken (the proxy closes idle
        // ones) before any work, so the work can still run on a new one
        try (Statement statement = connection.createStatement()) {
          statement.execute("SELECT 1");
        }
      }
      T result;
      try {
        workStarted = true;
        result = work.run(connection);
        if (!autocommit) {
          if (deadline.passed()) {
            throw deadlinePassed();
          }
          commitSent = true;
          connection.commit();
        }
      } catch (RuntimeException | SQLException e) {
        if (!autocommit && !commitSent) {
          rollbackQuietly(connection);
        }
        throw e;
      }
      healthy = true;
      return result;
    } catch (SQLException e) {
      boolean broken = SqlErrors.isConnectionFailure(e);
      healthy = !broken;
      if (broken && lease.kept() && (!workStarted || mode == Mode.READ)) {
        throw new StaleConnection(e);
      }
      if (broken && commitSent) {
        throw new CommitStateUnknownException(e);
      }
      if (broken && mode == Mode.TRANSACTION && deadline.passed()) {
        // the socket timed out at the deadline and the connection is closed: COMMIT was never
        // sent, so the server rolls the transaction back and nothing of it can land later
        throw deadlinePassed();
      }
      if (SqlErrors.is(e, SqlErrors.QUERY_CANCELED) && !deadline.isNone()) {
        throw deadlinePassed();
      }
      throw SqlErrors.translate(e);
    } catch (RuntimeException e) {
      healthy = isOpen(connection);
      throw e;
    } finally {
      release(connection, healthy);
    }
  }

  /**
   * The socket read timeout, set anew for each use (a local socket option, no round trip): the
   * deadline itself, which closes the connection when it passes, so a transaction whose {@code
   * COMMIT} was not sent can never land; a little more for a transaction with a server-side
   * statement timeout, which should fire first and leave the connection usable.
   */
  private static int networkTimeout(Deadline deadline, boolean serverTimeout) {
    if (deadline.isNone()) {
      return 0; // no timeout
    }
    long millis = deadline.remainingMillis() + (serverTimeout ? NETWORK_GRACE_MILLIS : 0);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, millis));
  }

  /** Milliseconds a statement of the transaction may take; 0 (no limit) without a deadline. */
  private static long statementTimeout(Deadline deadline) {
    return deadline.isNone() ? 0 : Math.max(1, deadline.remainingMillis());
  }

  private static ServiceUnavailableException deadlinePassed() {
    return new ServiceUnavailableException(
        "The request could not finish in time; nothing was committed");
  }

  private Lease acquire(Deadline deadline) {
    long wait = Math.min(ACQUIRE_TIMEOUT_MILLIS, deadline.remainingMillis());
    try {
      if (!permits.tryAcquire(wait, TimeUnit.MILLISECONDS)) {
        throw new ServiceUnavailableException("Timed out waiting for a metastore connection");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServiceUnavailableException("Interrupted waiting for a metastore connection");
    }
    Connection connection;
    synchronized (idle) {
      connection = idle.pollFirst();
    }
    if (connection != null) {
      return new Lease(connection, true);
    }
    try {
      return new Lease(factory.open(), false);
    } catch (SQLException e) {
      permits.release();
      throw new ServiceUnavailableException(
          e, "Cannot connect to the metastore: %s", e.getMessage());
    } catch (RuntimeException e) {
      permits.release();
      throw e;
    }
  }

  private void release(Connection connection, boolean healthy) {
    try {
      if (healthy) {
        synchronized (idle) {
          idle.addFirst(connection);
        }
      } else {
        closeQuietly(connection);
      }
    } finally {
      permits.release();
    }
  }

  /** Closes every idle connection, e.g. before a snapshot is taken or at shutdown. */
  public void closeIdleConnections() {
    synchronized (idle) {
      idle.forEach(Database::closeQuietly);
      idle.clear();
    }
  }

  @Override
  public void close() {
    closeIdleConnections();
  }

  private static boolean isOpen(Connection connection) {
    try {
      return !connection.isClosed();
    } catch (SQLException e) {
      return false;
    }
  }

  private static void rollbackQuietly(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException ignored) {
      // the connection is discarded by the caller when it is broken
    }
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // nothing more to release
    }
  }
}
