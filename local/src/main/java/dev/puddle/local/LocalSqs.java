package dev.puddle.local;

import dev.puddle.core.aws.SqsPurgeQueue;
import java.time.Duration;
import java.util.Map;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import org.elasticmq.rest.sqs.TheSQSRestServerBuilder;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * An SQS-compatible server on loopback (ElasticMQ), its queues in memory: what a restart loses, the
 * purge sweep sends again from PostgreSQL.
 */
public final class LocalSqs implements AutoCloseable {
  /** A queue and the dead-letter queue its messages go to after too many receives. */
  public record QueuePair(String url, String arn, String deadLetterUrl) {}

  private final SQSRestServer server;
  private final String endpoint;
  private final SqsClient client;

  private LocalSqs(SQSRestServer server, String endpoint) {
    this.server = server;
    this.endpoint = endpoint;
    this.client =
        SqsPurgeQueue.client(
            endpoint, LocalS3.REGION, LocalS3.ACCESS_KEY_ID, LocalS3.SECRET_ACCESS_KEY);
  }

  /** Starts the server on {@code bind}; port 0 picks a free one. */
  public static LocalSqs start(String bind, int port) {
    TheSQSRestServerBuilder builder =
        SQSRestServerBuilder.withInterface(bind).withAWSRegion(LocalS3.REGION);
    SQSRestServer server = (port > 0 ? builder.withPort(port) : builder.withDynamicPort()).start();
    int actual = server.waitUntilStarted().localAddress().getPort();
    return new LocalSqs(server, "http://" + bind + ":" + actual);
  }

  /**
   * Creates a queue and its dead-letter queue, as the stack does on AWS: a message not deleted
   * within {@code visibilityTimeout} is delivered again, and after {@code maxReceives} receives it
   * moves to the dead-letter queue.
   */
  public QueuePair createQueues(String name, Duration visibilityTimeout, int maxReceives) {
    String deadLetterUrl = client.createQueue(b -> b.queueName(name + "-dlq")).queueUrl();
    String deadLetterArn = arn(deadLetterUrl);
    String redrivePolicy =
        "{\"deadLetterTargetArn\":\""
            + deadLetterArn
            + "\",\"maxReceiveCount\":\""
            + maxReceives
            + "\"}";
    String url =
        client
            .createQueue(
                b ->
                    b.queueName(name)
                        .attributes(
                            Map.of(
                                QueueAttributeName.VISIBILITY_TIMEOUT,
                                Long.toString(visibilityTimeout.toSeconds()),
                                QueueAttributeName.REDRIVE_POLICY,
                                redrivePolicy)))
            .queueUrl();
    return new QueuePair(url, arn(url), deadLetterUrl);
  }

  private String arn(String queueUrl) {
    return client
        .getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
        .attributes()
        .get(QueueAttributeName.QUEUE_ARN);
  }

  public String endpoint() {
    return endpoint;
  }

  /** A client of this server, shared: callers do not close it. */
  public SqsClient client() {
    return client;
  }

  @Override
  public void close() {
    client.close();
    server.stopAndWait();
  }
}
