package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.purge.PurgeMessage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Protects the contract between Lambda's SQS event source mapping and the purge function: the
 * event's shape as Lambda sends it ({@code Records}, capitalised), the receive count SQS keeps, the
 * purge message body, and the partial batch response Lambda reads back.
 */
class SqsEventTest {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static final Path SAMPLE =
      Path.of(System.getProperty("puddle.events.dir", "../events"), "sqs", "purge.json");

  @Test
  void theSampleEventReadsAsLambdaSendsIt() throws IOException {
    SqsEvent event = JSON.readValue(SAMPLE.toFile(), SqsEvent.class);

    assertThat(event.records()).hasSize(1);
    SqsEvent.Message message = event.records().get(0);
    assertThat(message.messageId()).isNotBlank();
    assertThat(message.receiveCount()).isEqualTo(1);
    assertThat(message.eventSource()).isEqualTo("aws:sqs");
    assertThat(message.eventSourceArn()).endsWith(":puddle-purge");
    assertThat(PurgeMessage.job(message.body()))
        .isEqualTo(UUID.fromString("3b1f0c2e-5d4a-4e6b-9c8d-7f1e2a3b4c5d"));
  }

  @Test
  void anEventWritesBackInLambdasShape() throws IOException {
    SqsEvent event = JSON.readValue(SAMPLE.toFile(), SqsEvent.class);

    JsonNode written = JSON.readTree(JSON.writeValueAsString(event));

    assertThat(written.has("Records")).isTrue();
    assertThat(written.at("/Records/0/eventSourceARN").asText()).endsWith(":puddle-purge");
    assertThat(written.at("/Records/0/attributes/ApproximateReceiveCount").asText()).isEqualTo("1");
  }

  @Test
  void theBatchResponseNamesTheFailedMessagesAsLambdaExpects() throws IOException {
    SqsBatchResponse response =
        new SqsBatchResponse(List.of(new SqsBatchResponse.ItemFailure("message-1")));

    assertThat(JSON.writeValueAsString(response))
        .isEqualTo("{\"batchItemFailures\":[{\"itemIdentifier\":\"message-1\"}]}");
  }

  @Test
  void aBodyThatNamesNoJobIsRefused() {
    assertThatThrownBy(() -> PurgeMessage.job("{\"table\":\"x\"}"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PurgeMessage.job("not json"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
