package dev.puddle.core.metastore.dataapi;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.rdsdata.RdsDataClient;
import software.amazon.awssdk.services.rdsdata.model.ExecuteStatementRequest;
import software.amazon.awssdk.services.rdsdata.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.rdsdata.model.SqlParameter;

/**
 * The Data API calls of one cluster, database and secret: every call is retried while the cluster
 * resumes, and its failures arrive as {@link SQLException}s.
 */
final class DataApiClient {
  /** The Data API accepts SQL text of at most this many characters. */
  static final int MAX_SQL_LENGTH = 65_536;

  private final RdsDataClient client;
  private final String resourceArn;
  private final String secretArn;
  private final String database;
  private final ResumeRetry retry;

  DataApiClient(
      RdsDataClient client,
      String resourceArn,
      String secretArn,
      String database,
      ResumeRetry retry) {
    this.client = client;
    this.resourceArn = resourceArn;
    this.secretArn = secretArn;
    this.database = database;
    this.retry = retry;
  }

  String begin() throws SQLException {
    return call(
        () ->
            client
                .beginTransaction(
                    b -> b.resourceArn(resourceArn).secretArn(secretArn).database(database))
                .transactionId(),
        null);
  }

  /**
   * Commits. A cluster that is resuming holds no transaction to commit, so this is not waited for:
   * the transaction is lost either way.
   */
  void commit(String transactionId) throws SQLException {
    call(
        () ->
            client.commitTransaction(
                b -> b.resourceArn(resourceArn).secretArn(secretArn).transactionId(transactionId)),
        Duration.ZERO);
  }

  /** Rolls back, not waiting for a resuming cluster either: it holds no transaction. */
  void rollback(String transactionId) throws SQLException {
    call(
        () ->
            client.rollbackTransaction(
                b -> b.resourceArn(resourceArn).secretArn(secretArn).transactionId(transactionId)),
        Duration.ZERO);
  }

  /** Runs one statement, in the transaction if one is given, else on its own (autocommit). */
  ExecuteStatementResponse execute(String sql, List<SqlParameter> parameters, String transactionId)
      throws SQLException {
    return execute(sql, parameters, transactionId, null);
  }

  /** As {@link #execute(String, List, String)}, waiting for a resume at most {@code wait}. */
  ExecuteStatementResponse execute(
      String sql, List<SqlParameter> parameters, String transactionId, Duration wait)
      throws SQLException {
    if (sql.length() > MAX_SQL_LENGTH) {
      throw new SQLException(
          "SQL of "
              + sql.length()
              + " characters exceeds the Data API's limit of "
              + MAX_SQL_LENGTH,
          DataApiErrors.PROGRAM_LIMIT_EXCEEDED);
    }
    ExecuteStatementRequest request =
        ExecuteStatementRequest.builder()
            .resourceArn(resourceArn)
            .secretArn(secretArn)
            .database(database)
            .sql(sql)
            .parameters(parameters)
            .transactionId(transactionId)
            .build();
    return call(() -> client.executeStatement(request), wait);
  }

  private <T> T call(Supplier<T> call, Duration wait) throws SQLException {
    try {
      return wait == null ? retry.call(call) : retry.call(call, wait);
    } catch (SdkException e) {
      throw DataApiErrors.translate(e);
    }
  }
}
