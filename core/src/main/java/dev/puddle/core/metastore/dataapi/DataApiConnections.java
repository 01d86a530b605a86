package dev.puddle.core.metastore.dataapi;

import dev.puddle.core.metastore.Database;
import java.net.URI;
import java.sql.Connection;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.rdsdata.RdsDataClient;
import software.amazon.awssdk.services.rdsdata.RdsDataClientBuilder;

/**
 * Opens metastore connections over the RDS Data API: HTTPS calls to an Aurora PostgreSQL cluster,
 * no VPC, no connection pool, no proxy, and a cluster that may pause at zero capacity. The
 * connections implement the part of JDBC the metastore uses, so {@link Database} and every
 * metastore class run unchanged over them. The Data API's limits are kept inside the adapter: large
 * results are read in pieces ({@link ResultReader}), large values written in pieces ({@link
 * ParameterStaging}), and a resuming cluster waited for ({@link ResumeRetry}).
 *
 * <p>The factory owns its SDK client and closes it.
 */
public final class DataApiConnections implements Database.ConnectionFactory, AutoCloseable {

  /** Which cluster, with which secret, and which database (null: the cluster's default). */
  public record Target(String clusterArn, String secretArn, String database) {
    public Target {
      if (clusterArn == null || clusterArn.isBlank() || secretArn == null || secretArn.isBlank()) {
        throw new IllegalArgumentException("The Data API needs a cluster ARN and a secret ARN");
      }
    }
  }

  /**
   * How long to wait out a resuming cluster: at most {@code maxWait} per call, backing off from
   * {@code firstBackoff} to {@code maxBackoff}.
   */
  public record Resume(Duration maxWait, Duration firstBackoff, Duration maxBackoff) {
    /**
     * Aurora Serverless v2 resumes from zero capacity in about 15 seconds; 20 leaves API Gateway's
     * 30 second limit room to answer 503 if it takes longer.
     */
    public static final Resume DEFAULT =
        new Resume(Duration.ofSeconds(20), Duration.ofMillis(250), Duration.ofSeconds(4));
  }

  /** The most rows a statement may return over the Data API. */
  public static final int MAX_ROWS = ResultReader.MAX_ROWS;

  /**
   * The Data API stops a statement after 45 seconds; the client waits a little longer so that it
   * hears the service's own timeout rather than cutting the call off itself.
   */
  private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(50);

  private final RdsDataClient client;
  private final DataApiClient calls;

  /**
   * Connections through {@code client}, waiting for a resuming cluster as {@code resume} says, and
   * never longer than a connection's network timeout, which the metastore sets from the request's
   * deadline.
   */
  public DataApiConnections(RdsDataClient client, Target target, Resume resume) {
    this.client = client;
    this.calls =
        new DataApiClient(
            client,
            target.clusterArn(),
            target.secretArn(),
            target.database(),
            new ResumeRetry(resume.maxWait(), resume.firstBackoff(), resume.maxBackoff()));
  }

  /**
   * An SDK client for the Data API of a region, optionally at another endpoint (a VPC endpoint, or
   * a test's). It uses the JDK's HTTP client, like the rest of Puddle, and makes no retries of its
   * own: a repeated call could apply a statement twice, so only calls that certainly did not run
   * are repeated, by the adapter.
   */
  public static RdsDataClient client(
      String region, URI endpoint, AwsCredentialsProvider credentials) {
    RdsDataClientBuilder builder =
        RdsDataClient.builder()
            .region(Region.of(region))
            .credentialsProvider(credentials)
            .httpClientBuilder(UrlConnectionHttpClient.builder().socketTimeout(SOCKET_TIMEOUT))
            .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
    if (endpoint != null) {
      builder.endpointOverride(endpoint);
    }
    return builder.build();
  }

  @Override
  public Connection open() {
    return JdbcSubset.of(Connection.class, new DataApiConnection(calls));
  }

  /** No pooler between the Data API and the cluster, and no socket of ours to time out. */
  @Override
  public boolean timesOutTransactionsOnServer() {
    return true;
  }

  /** Every statement is an HTTPS request to the Data API, billed and throttled as one. */
  @Override
  public boolean billsEachStatement() {
    return true;
  }

  @Override
  public void close() {
    client.close();
  }
}
