package dev.puddle.core.aws;

import dev.puddle.core.events.CloudEvents;
import dev.puddle.core.events.EventPublisher;
import dev.puddle.core.events.EventRelayQueue;
import dev.puddle.core.metastore.StoredEvent;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * The relay's two uses of SQS: its queue of nudges ({@link #nudge}, queue {@code queueUrl}), and,
 * in the twin, the target its events are published to instead of EventBridge ({@link #publish}: the
 * CloudEvents envelope as the message body, queue {@code puddle-events}).
 */
public final class SqsEventRelay implements EventRelayQueue, EventPublisher {
  private static final String NUDGE = "{\"relay\":\"events\"}";

  private final SqsClient sqs;
  private final String queueUrl;

  public SqsEventRelay(SqsClient sqs, String queueUrl) {
    this.sqs = sqs;
    this.queueUrl = queueUrl;
  }

  @Override
  public void nudge(Duration delay) {
    int seconds = Math.toIntExact(delay.toSeconds());
    sqs.sendMessage(
        b -> b.queueUrl(queueUrl).messageBody(NUDGE).delaySeconds(seconds > 0 ? seconds : null));
  }

  @Override
  public int publish(List<StoredEvent> batch) {
    if (batch.isEmpty()) {
      return 0;
    }
    SendMessageBatchResponse response =
        sqs.sendMessageBatch(
            b ->
                b.queueUrl(queueUrl)
                    .entries(
                        IntStream.range(0, batch.size())
                            .mapToObj(
                                i ->
                                    SendMessageBatchRequestEntry.builder()
                                        .id(Integer.toString(i))
                                        .messageBody(CloudEvents.envelope(batch.get(i)))
                                        .build())
                            .toList()));
    int accepted = 0;
    while (accepted < batch.size()) {
      String id = Integer.toString(accepted);
      if (response.failed().stream().anyMatch(f -> f.id().equals(id))) {
        break;
      }
      accepted++;
    }
    return accepted;
  }
}
