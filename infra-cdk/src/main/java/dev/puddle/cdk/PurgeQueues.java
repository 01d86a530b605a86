package dev.puddle.cdk;

import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * A job queue and its dead-letter queue: the purge queue, or the planning queue. A purge message
 * stays invisible for six times the purge function's timeout, as AWS advises for SQS event sources
 * (room for the function's retries and for batching), and moves to the dead-letter queue after
 * {@code purgeMaxReceives} receives. A planning message stays invisible one minute longer than the
 * planning function's timeout (the least SQS allows it), so that all its receives fit in a plan's
 * hour of life.
 */
final class PurgeQueues extends Construct {
  /** The visibility timeout per unit of the consuming function's timeout. */
  static final int VISIBILITY_PER_TIMEOUT = 6;

  private final Queue queue;
  private final Queue deadLetters;
  private final Duration visibility;

  /** The planning queue's {@code maxReceiveCount}: three tries fit in a plan's hour of life. */
  static final int PLANNING_MAX_RECEIVES = 3;

  PurgeQueues(Construct scope, String id, Settings settings) {
    this(scope, id, visibilityTimeout(), settings.purgeMaxReceives());
  }

  /** The planning queue: for the planning function, whose plans live an hour. */
  static PurgeQueues planning(Construct scope, String id) {
    return new PurgeQueues(
        scope, id, Duration.seconds(Group.PLAN.timeout().toSeconds() + 60), PLANNING_MAX_RECEIVES);
  }

  private PurgeQueues(Construct scope, String id, Duration visibility, int maxReceives) {
    super(scope, id);
    this.visibility = visibility;
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
            .visibilityTimeout(visibility)
            .retentionPeriod(Duration.days(14))
            .deadLetterQueue(
                DeadLetterQueue.builder().queue(deadLetters).maxReceiveCount(maxReceives).build())
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

  /**
   * How long the sweep lets a queued job of this queue sit before sending it again, in whole
   * minutes, when each receive of its message moves the job (the planning queue's: claimed, then
   * released or failed): the visibility timeout, after which SQS redelivers on its own, plus two
   * minutes.
   */
  long redeliveryStaleMinutes() {
    return (long) Math.ceil((visibility.toSeconds().doubleValue() + 120) / 60);
  }

  Queue queue() {
    return queue;
  }

  Queue deadLetters() {
    return deadLetters;
  }
}
