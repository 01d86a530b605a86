package dev.puddle.core.aws;

import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeMessage;
import dev.puddle.core.purge.PurgeQueue;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The SQS purge queue, which carries every kind of background job, over the JDK's HTTP client. */
public final class SqsPurgeQueue implements PurgeQueue, AutoCloseable {
  private static final long MAX_DELAY_SECONDS = 900;

  private final SqsClient sqs;
  private final String queueUrl;

  public SqsPurgeQueue(SqsClient sqs, String queueUrl) {
    this.sqs = sqs;
    this.queueUrl = queueUrl;
  }

  /** A client for SQS in a region, with the function's own credentials. */
  public static SqsClient awsClient(String region) {
    return SqsClient.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .region(Region.of(region))
        .build();
  }

  /** A client for an SQS-compatible server with static keys, e.g. the local twin's. */
  public static SqsClient client(
      String endpoint, String region, String accessKeyId, String secretAccessKey) {
    return SqsClient.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .endpointOverride(URI.create(endpoint))
        .region(Region.of(region))
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(accessKeyId, secretAccessKey)))
        .build();
  }

  @Override
  public void send(JobKind kind, UUID job, Duration delay) {
    long seconds = Math.min(MAX_DELAY_SECONDS, (delay.toMillis() + 999) / 1000);
    sqs.sendMessage(
        b ->
            b.queueUrl(queueUrl)
                .messageBody(PurgeMessage.body(kind, job))
                .delaySeconds((int) seconds));
  }

  @Override
  public void close() {
    sqs.close();
  }
}
