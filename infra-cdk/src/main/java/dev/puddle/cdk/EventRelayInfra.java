package dev.puddle.cdk;

import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.events.EventBus;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.targets.SqsQueue;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * The change-event relay's AWS side: the EventBridge bus the relay publishes CloudEvents to, the
 * queue of nudges that triggers the relay function (with its dead-letter queue, alarmed on by
 * {@link Monitoring}), and an example rule that routes every table commit to an SQS queue, to copy
 * for a real consumer ({@code docs/events.md}).
 */
final class EventRelayInfra extends Construct {
  /** Receives of a nudge before it goes to the dead-letter queue: the relay is stuck. */
  static final int MAX_RECEIVES = 5;

  /** The events' source, as the relay puts it (core's {@code SOURCE}). */
  static final String SOURCE = "dev.puddle.catalog";

  private final EventBus bus;
  private final Queue queue;
  private final Queue deadLetters;
  private final Queue exampleTarget;

  EventRelayInfra(Construct scope, String id) {
    super(scope, id);
    bus = EventBus.Builder.create(this, "Bus").description("Puddle: catalog change events").build();
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
            .visibilityTimeout(
                Duration.seconds(
                    Group.RELAY.timeout().toSeconds() * PurgeQueues.VISIBILITY_PER_TIMEOUT))
            .retentionPeriod(Duration.days(4))
            .deadLetterQueue(
                DeadLetterQueue.builder().queue(deadLetters).maxReceiveCount(MAX_RECEIVES).build())
            .build();
    Queue exampleDeadLetters =
        Queue.Builder.create(this, "ExampleTableCommitsDeadLetters")
            .encryption(QueueEncryption.SQS_MANAGED)
            .enforceSsl(true)
            .retentionPeriod(Duration.days(14))
            .build();
    exampleTarget =
        Queue.Builder.create(this, "ExampleTableCommits")
            .encryption(QueueEncryption.SQS_MANAGED)
            .enforceSsl(true)
            .retentionPeriod(Duration.days(4))
            .deadLetterQueue(
                DeadLetterQueue.builder()
                    .queue(exampleDeadLetters)
                    .maxReceiveCount(MAX_RECEIVES)
                    .build())
            .build();
    Rule.Builder.create(this, "ExampleTableCommitsRule")
        .description("Puddle example: every table commit, as a CloudEvent, to an SQS queue")
        .eventBus(bus)
        .eventPattern(
            EventPattern.builder()
                .source(List.of(SOURCE))
                .detailType(List.of("dev.puddle.catalog.update-table"))
                .build())
        .targets(List.of(SqsQueue.Builder.create(exampleTarget).build()))
        .build();
  }

  EventBus bus() {
    return bus;
  }

  Queue queue() {
    return queue;
  }

  Queue deadLetters() {
    return deadLetters;
  }

  Queue exampleTarget() {
    return exampleTarget;
  }
}
