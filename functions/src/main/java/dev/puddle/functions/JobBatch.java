package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.api.Deadline;
import dev.puddle.core.purge.PurgeProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;

/**
 * One invocation of a job queue's function (purge and maintenance, planning): the SQS event's
 * messages handed to the job processor with the invocation's remaining time, the messages that
 * failed answered as batch item failures ({@code ReportBatchItemFailures}) so that only they are
 * redelivered. The two entry points differ only in the processor they are built with.
 */
final class JobBatch {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private JobBatch() {}

  /** Reads the event, processes it by the end of the invocation, writes the batch response. */
  static void serve(
      PurgeProcessor processor, InputStream input, OutputStream output, Context context)
      throws IOException {
    SqsEvent event = JSON.readValue(input, SqsEvent.class);
    Deadline deadline = Deadline.in(Duration.ofMillis(context.getRemainingTimeInMillis()));
    JSON.writeValue(output, process(processor, event, deadline));
  }

  /** Processes one batch by the deadline; the failed messages are the response. */
  static SqsBatchResponse process(PurgeProcessor processor, SqsEvent event, Deadline deadline) {
    List<PurgeProcessor.Delivery> batch =
        event.records() == null
            ? List.of()
            : event.records().stream()
                .map(m -> new PurgeProcessor.Delivery(m.messageId(), m.body(), m.receiveCount()))
                .toList();
    return new SqsBatchResponse(
        processor.process(batch, deadline).stream()
            .map(SqsBatchResponse.ItemFailure::new)
            .toList());
  }
}
