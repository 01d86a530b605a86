package dev.puddle.core.metastore.dataapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import software.amazon.awssdk.services.rdsdata.model.SqlParameter;

/**
 * The {@link java.sql.Connection} subset the metastore uses, over the RDS Data API. A Data API
 * "connection" holds no network connection and no session: autocommit statements run on their own,
 * and a transaction is a {@code transactionId}, begun lazily by the first statement after {@code
 * setAutoCommit(false)} and ended by {@code commit()} or {@code rollback()}. So a transaction that
 * runs no statement costs no call.
 *
 * <p>Like a JDBC connection it serves one thread at a time, which {@code Database} guarantees.
 */
final class DataApiConnection {
  private final DataApiClient calls;
  private DataApiClient client;
  private int networkTimeoutMillis;
  private boolean autoCommit = true;
  private String transactionId;
  private boolean closed;

  DataApiConnection(DataApiClient calls) {
    this.calls = calls;
    this.client = calls;
  }

  /** What a statement returned: rows for a query, else the number of rows it changed. */
  record Outcome(List<List<JsonNode>> rows, long updateCount) {}

  public PreparedStatement prepareStatement(String sql) throws SQLException {
    checkOpen();
    return JdbcSubset.of(PreparedStatement.class, new DataApiStatement(this, sql));
  }

  public Statement createStatement() throws SQLException {
    checkOpen();
    return JdbcSubset.of(Statement.class, new DataApiStatement(this, null));
  }

  public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
    return JdbcSubset.of(Array.class, new DataApiArray(typeName, elements));
  }

  public boolean getAutoCommit() throws SQLException {
    checkOpen();
    return autoCommit;
  }

  /** As JDBC requires, switching autocommit on commits the transaction in progress. */
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    checkOpen();
    if (autoCommit && !this.autoCommit) {
      commit();
    }
    this.autoCommit = autoCommit;
  }

  public void commit() throws SQLException {
    checkOpen();
    String transaction = transactionId;
    transactionId = null;
    if (transaction != null) {
      client.commit(transaction);
    }
  }

  public void rollback() throws SQLException {
    checkOpen();
    String transaction = transactionId;
    transactionId = null;
    if (transaction != null) {
      client.rollback(transaction);
    }
  }

  /**
   * Gives every later call at most this long, waiting for a resuming cluster included (0: no
   * limit). There is no socket to time out: the limit is the SDK's timeout of each call.
   */
  public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
    checkOpen();
    if (milliseconds < 0) {
      throw new SQLException("Negative timeout: " + milliseconds);
    }
    networkTimeoutMillis = milliseconds;
    client = calls.limitedTo(milliseconds == 0 ? null : Duration.ofMillis(milliseconds));
  }

  public int getNetworkTimeout() throws SQLException {
    checkOpen();
    return networkTimeoutMillis;
  }

  /** Runs {@code SELECT 1}: the Data API, the secret and the database all answer. */
  public boolean isValid(int timeoutSeconds) throws SQLException {
    if (timeoutSeconds < 0) {
      throw new SQLException("Negative timeout: " + timeoutSeconds);
    }
    if (closed) {
      return false;
    }
    try {
      DataApiClient check =
          timeoutSeconds == 0 ? client : calls.limitedTo(Duration.ofSeconds(timeoutSeconds));
      check.execute("SELECT 1", List.of(), null);
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  public boolean isClosed() {
    return closed;
  }

  /** Closes the connection, rolling back a transaction left open. */
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    try {
      rollback();
    } finally {
      closed = true;
    }
  }

  /**
   * Runs a statement with positional parameters: in the open transaction (begun now if this is its
   * first statement), else on its own, unless its values must be staged, which needs a transaction
   * of its own.
   */
  Outcome run(String sql, List<Parameter> parameters, boolean query) throws SQLException {
    checkOpen();
    boolean stage = ParameterStaging.needed(sql, parameters);
    if (!autoCommit) {
      if (transactionId == null) {
        transactionId = client.begin();
      }
      return run(sql, parameters, query, transactionId, stage);
    }
    if (!stage) {
      return run(sql, parameters, query, null, false);
    }
    String transaction = client.begin();
    Outcome outcome;
    try {
      outcome = run(sql, parameters, query, transaction, true);
    } catch (SQLException | RuntimeException e) {
      try {
        client.rollback(transaction);
      } catch (SQLException rollbackFailure) {
        e.addSuppressed(rollbackFailure);
      }
      throw e;
    }
    client.commit(transaction);
    return outcome;
  }

  private Outcome run(
      String sql, List<Parameter> parameters, boolean query, String transaction, boolean stage)
      throws SQLException {
    List<Parameter> bound =
        stage ? ParameterStaging.stage(client, transaction, sql, parameters) : parameters;
    String named = SqlScanner.replacePlaceholders(sql, i -> bound.get(i - 1).placeholder("p" + i));
    List<SqlParameter> values = new ArrayList<>();
    for (int i = 0; i < bound.size(); i++) {
      SqlParameter value = bound.get(i).toSql("p" + (i + 1));
      if (value != null) {
        values.add(value);
      }
    }
    if (query) {
      ResultReader reader = new ResultReader(client);
      return new Outcome(reader.read(named, values, transaction), -1);
    }
    Long updated = client.execute(named, values, transaction).numberOfRecordsUpdated();
    return new Outcome(null, updated == null ? 0 : updated);
  }

  private void checkOpen() throws SQLException {
    if (closed) {
      throw new SQLNonTransientConnectionException("The connection is closed", "08003");
    }
  }
}
