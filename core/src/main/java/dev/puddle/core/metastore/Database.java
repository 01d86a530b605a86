package dev.puddle.core.metastore;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Connections to the metastore. Connections carry no session state (no {@code SET}, no session
 * advisory locks, no temporary tables), so a proxy in front of PostgreSQL never pins them.
 *
 * <p>A Lambda execution environment serves one request at a time and keeps one connection,
 * opened lazily; the local server keeps a few. A connection that failed is discarded and the
 * next request opens a new one.
 */
public final class Database implements AutoCloseable {

  /** Work done on a connection. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Opens new connections. */
  @FunctionalInterface
  public interface ConnectionFactory {
    Connection open() throws SQLException;
  }

  private static final long ACQUIRE_TIMEOUT_SECONDS = 25;

  private final ConnectionFactory factory;
  private final Semaphore permits;
  private final Deque<Connection> idle = new ArrayDeque<>();

  public Database(ConnectionFactory factory, int maxConnections) {
    this.factory = factory;
    this.permits = new Semaphore(maxConnections, true);
  }

  /** Runs work in autocommit mode: each statement is its own transaction. */
  public <T> T autocommit(Work<T> work) {
    return run(work, true);
  }

  /** Runs work in one database transaction, committed if it returns and rolled back if it throws. */
  public <T> T transaction(Work<T> work) {
    return run(work, false);
  }

  private <T> T run(Work<T> work, boolean autocommit) {
    Connection connection = acquire();
    boolean healthy = false;
    try {
      if (connection.getAutoCommit() != autocommit) {
        connection.setAutoCommit(autocommit);
      }
      T result;
      try {
        result = work.run(connection);
        if (!autocommit) {
          connection.commit();
        }
      } catch (RuntimeException | SQLException e) {
        if (!autocommit) {
          rollbackQuietly(connection);
        }
        throw e;
      }
      healthy = true;
      return result;
    } catch (SQLException e) {
      healthy = !SqlErrors.isConnectionFailure(e);
      throw SqlErrors.translate(e);
    } catch (RuntimeException e) {
      healthy = isOpen(connection);
      throw e;
    } finally {
      release(connection, healthy);
    }
  }

  private Connection acquire() {
    try {
      if (!permits.tryAcquire(ACQUIRE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
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
      return connection;
    }
    try {
      return factory.open();
    } catch (SQLException e) {
      permits.release();
      throw new ServiceUnavailableException(e, "Cannot connect to the metastore: %s", e.getMessage());
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
