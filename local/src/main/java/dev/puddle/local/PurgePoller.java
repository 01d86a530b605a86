package dev.puddle.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.functions.SqsBatchResponse;
import dev.puddle.functions.SqsEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Plays Lambda's SQS event source mapping in front of the purge handler: receives batches of up to
 * ten messages (or, with a batching window, gathers messages for the window from the first, up to
 * its batch size, as the mapping's {@code MaximumBatchingWindowInSeconds} does), invokes the
 * handler with them as the SQS event JSON Lambda sends, and deletes the messages the handler did
 * not report in {@code batchItemFailures}. When the invocation itself fails, nothing is deleted, so
 * the whole batch is delivered again after the visibility timeout, and after the queue's {@code
 * maxReceiveCount} receives SQS moves a message to the dead-letter queue.
 */
public final class PurgePoller implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PurgePoller.class);
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** The most messages one receive (and one batch delete) takes. */
  private static final int RECEIVE_MAX = 10;

  private static final Duration LONG_POLL = Duration.ofSeconds(1);

  /**
   * How the mapping batches: up to {@code size} messages per invocation, gathered for {@code
   * window} from the first one received (none: what one receive returns, up to ten).
   */
  public record Batching(int size, Duration window) {
    /** One receive's messages per invocation, as a mapping without a batching window. */
    public static final Batching NONE = new Batching(RECEIVE_MAX, Duration.ZERO);
  }

  private final SqsClient sqs;
  private final LocalSqs.QueuePair queue;
  private final RequestStreamHandler handler;
  private final Duration functionTimeout;
  private final Batching batching;
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * @param functionTimeout the time limit each invocation gets, as the purge function's timeout
   */
  public PurgePoller(
      SqsClient sqs,
      LocalSqs.QueuePair queue,
      RequestStreamHandler handler,
      Duration functionTimeout) {
    this(sqs, queue, handler, functionTimeout, Batching.NONE);
  }

  /**
   * @param functionTimeout the time limit each invocation gets, as the function's timeout
   * @param batching how the mapping gathers messages into one invocation
   */
  public PurgePoller(
      SqsClient sqs,
      LocalSqs.QueuePair queue,
      RequestStreamHandler handler,
      Duration functionTimeout,
      Batching batching) {
    this.sqs = sqs;
    this.queue = queue;
    this.handler = handler;
    this.functionTimeout = functionTimeout;
    this.batching = batching;
    String name = queue.url().substring(queue.url().lastIndexOf('/') + 1);
    this.thread = new Thread(this::run, name + "-poller");
    thread.setDaemon(true);
  }

  /** Starts polling on a thread of its own. */
  public void start() {
    thread.start();
  }

  private void run() {
    while (running) {
      try {
        pollOnce();
      } catch (RuntimeException | IOException e) {
        if (running) {
          LOG.warn("Purge invocation failed; its batch is delivered again", e);
        }
      }
    }
  }

  /**
   * Receives one batch, waiting up to a second for its first message (and then, with a batching
   * window, for the window), and invokes the handler with it; returns how many messages it
   * received.
   */
  public int pollOnce() throws IOException {
    List<Message> messages =
        new ArrayList<>(
            receive((int) LONG_POLL.toSeconds(), Math.min(RECEIVE_MAX, batching.size())));
    if (messages.isEmpty()) {
      return 0;
    }
    if (!batching.window().isZero()) {
      try {
        // the mapping gathers for its window from the first message on
        Thread.sleep(batching.window());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      while (messages.size() < batching.size()) {
        List<Message> more = receive(0, Math.min(RECEIVE_MAX, batching.size() - messages.size()));
        if (more.isEmpty()) {
          break;
        }
        messages.addAll(more);
      }
    }
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream(JSON.writeValueAsBytes(event(messages))),
        output,
        new LocalContext(UUID.randomUUID().toString(), functionTimeout));
    SqsBatchResponse response = JSON.readValue(output.toByteArray(), SqsBatchResponse.class);
    Set<String> failed =
        response.batchItemFailures() == null
            ? Set.of()
            : response.batchItemFailures().stream()
                .map(SqsBatchResponse.ItemFailure::itemIdentifier)
                .collect(Collectors.toSet());
    List<DeleteMessageBatchRequestEntry> done = new ArrayList<>();
    for (Message message : messages) {
      if (!failed.contains(message.messageId())) {
        done.add(
            DeleteMessageBatchRequestEntry.builder()
                .id(Integer.toString(done.size()))
                .receiptHandle(message.receiptHandle())
                .build());
      }
    }
    for (int from = 0; from < done.size(); from += RECEIVE_MAX) {
      List<DeleteMessageBatchRequestEntry> chunk =
          done.subList(from, Math.min(done.size(), from + RECEIVE_MAX));
      sqs.deleteMessageBatch(b -> b.queueUrl(queue.url()).entries(chunk));
    }
    return messages.size();
  }

  private List<Message> receive(int waitSeconds, int max) {
    return sqs.receiveMessage(
            b ->
                b.queueUrl(queue.url())
                    .maxNumberOfMessages(max)
                    .waitTimeSeconds(waitSeconds)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                    .messageAttributeNames("All"))
        .messages();
  }

  private SqsEvent event(List<Message> messages) {
    List<SqsEvent.Message> records = new ArrayList<>();
    for (Message message : messages) {
      Map<String, String> attributes = new HashMap<>();
      message.attributes().forEach((name, value) -> attributes.put(name.toString(), value));
      Map<String, SqsEvent.MessageAttribute> messageAttributes = new HashMap<>();
      message
          .messageAttributes()
          .forEach(
              (name, value) ->
                  messageAttributes.put(
                      name,
                      new SqsEvent.MessageAttribute(
                          value.stringValue(),
                          value.binaryValue() == null
                              ? null
                              : java.util.Base64.getEncoder()
                                  .encodeToString(value.binaryValue().asByteArray()),
                          value.dataType())));
      records.add(
          new SqsEvent.Message(
              message.messageId(),
              message.receiptHandle(),
              message.body(),
              attributes,
              messageAttributes,
              message.md5OfBody(),
              "aws:sqs",
              queue.arn(),
              LocalS3.REGION));
    }
    return new SqsEvent(records);
  }

  /** Stops polling and waits for the batch in progress, at most one function timeout. */
  @Override
  public void close() {
    running = false;
    try {
      thread.join(functionTimeout.plus(LONG_POLL).plus(batching.window()).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
