package dev.puddle.cdk;

import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * The purge queue and its dead-letter queue. A message stays invisible for six times the purge
 * function's timeout, as AWS advises for SQS event sources (room for the function's retries and for
 * batching), and moves to the dead-letter queue after {@code purgeMaxReceives} receives.
 */
final class PurgeQueues extends Construct {
  /** The visibility timeout per unit of the consuming function's timeout. */
  static final int VISIBILITY_PER_TIMEOUT = 6;

  private final Queue queue;
  private final Queue deadLetters;

  PurgeQueues(Construct scope, String id, Settings settings) {
    super(scope, id);
    deadLetters =
        Queue.Builder.create(this, "DeadLetters")
            .encryption(QueueEncryption.SQS_MANAGED)
            .enforceSsl(true)
            .retentionPeriod(Duration.days(14))
            .build();
    queue =
        Queue.Builder.create(this, "Queue")
            .encryption(QueueEncryption.SQS_MANAGED)
            .enforceSsl(true)
            .visibilityTimeout(visibilityTimeout())
            .retentionPeriod(Duration.days(14))
            .deadLetterQueue(
                DeadLetterQueue.builder()
                    .queue(deadLetters)
                    .maxReceiveCount(settings.purgeMaxReceives())
                    .build())
            .build();
  }

  static Duration visibilityTimeout() {
    return Duration.seconds(Group.PURGE.timeout().toSeconds() * VISIBILITY_PER_TIMEOUT);
  }

  /**
   * How long the sweep lets a queued job sit before sending it again: longer than SQS's own
   * redeliveries of its message can take (visibility timeout times receives), plus a margin.
   */
  static long sweepStaleMinutes(Settings settings) {
    return visibilityTimeout().toMinutes().longValue() * settings.purgeMaxReceives() + 30;
  }

  Queue queue() {
    return queue;
  }

  Queue deadLetters() {
    return deadLetters;
  }
}
