package dev.puddle.core.metastore.dataapi;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.rdsdata.RdsDataClient;
import software.amazon.awssdk.services.rdsdata.model.BeginTransactionRequest;
import software.amazon.awssdk.services.rdsdata.model.CommitTransactionRequest;
import software.amazon.awssdk.services.rdsdata.model.ExecuteStatementRequest;
import software.amazon.awssdk.services.rdsdata.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.rdsdata.model.RollbackTransactionRequest;
import software.amazon.awssdk.services.rdsdata.model.SqlParameter;

/**
 * The Data API calls of one cluster, database and secret: every call is retried while the cluster
 * resumes, and its failures arrive as {@link SQLException}s. A client {@linkplain #limitedTo
 * limited} to a time (a connection's network timeout, which the metastore sets from the request's
 * deadline) gives each call at most that long, waiting for a resume included.
 */
final class DataApiClient {
  /** The Data API accepts SQL text of at most this many characters. */
  static final int MAX_SQL_LENGTH = 65_536;

  private final RdsDataClient client;
  private final String resourceArn;
  private final String secretArn;
  private final String database;
  private final ResumeRetry retry;
  private final Duration limit;

  DataApiClient(
      RdsDataClient client,
      String resourceArn,
      String secretArn,
      String database,
      ResumeRetry retry) {
    this(client, resourceArn, secretArn, database, retry, null);
  }

  private DataApiClient(
      RdsDataClient client,
      String resourceArn,
      String secretArn,
      String database,
      ResumeRetry retry,
      Duration limit) {
    this.client = client;
    this.resourceArn = resourceArn;
    this.secretArn = secretArn;
    this.database = database;
    this.retry = retry;
    this.limit = limit;
  }

  /** The same calls, each given at most {@code limit} (null: no limit of its own). */
  DataApiClient limitedTo(Duration limit) {
    return new DataApiClient(client, resourceArn, secretArn, database, retry, limit);
  }

  String begin() throws SQLException {
    BeginTransactionRequest request =
        BeginTransactionRequest.builder()
            .resourceArn(resourceArn)
            .secretArn(secretArn)
            .database(database)
            .overrideConfiguration(timeout())
            .build();
    return call(() -> client.beginTransaction(request).transactionId(), true);
  }

  /**
   * Commits. A cluster that is resuming holds no transaction to commit, so this is not waited for:
   * the transaction is lost either way.
   */
  void commit(String transactionId) throws SQLException {
    CommitTransactionRequest request =
        CommitTransactionRequest.builder()
            .resourceArn(resourceArn)
            .secretArn(secretArn)
            .transactionId(transactionId)
            .overrideConfiguration(timeout())
            .build();
    call(() -> client.commitTransaction(request), false);
  }

  /** Rolls back, not waiting for a resuming cluster either: it holds no transaction. */
  void rollback(String transactionId) throws SQLException {
    RollbackTransactionRequest request =
        RollbackTransactionRequest.builder()
            .resourceArn(resourceArn)
            .secretArn(secretArn)
            .transactionId(transactionId)
            .overrideConfiguration(timeout())
            .build();
    call(() -> client.rollbackTransaction(request), false);
  }

  /** Runs one statement, in the transaction if one is given, else on its own (autocommit). */
  ExecuteStatementResponse execute(String sql, List<SqlParameter> parameters, String transactionId)
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
            .overrideConfiguration(timeout())
            .build();
    return call(() -> client.executeStatement(request), true);
  }

  private AwsRequestOverrideConfiguration timeout() {
    return limit == null
        ? null
        : AwsRequestOverrideConfiguration.builder().apiCallTimeout(limit).build();
  }

  private <T> T call(Supplier<T> call, boolean waitForResume) throws SQLException {
    Duration wait = waitForResume ? limit : Duration.ZERO;
    try {
      return wait == null ? retry.call(call) : retry.call(call, wait);
    } catch (SdkException e) {
      throw DataApiErrors.translate(e);
    }
  }
}
