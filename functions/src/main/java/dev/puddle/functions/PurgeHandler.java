package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.puddle.core.api.Deadline;
import dev.puddle.core.purge.PurgeProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The Lambda entry point of the purge function: an SQS event of purge messages in, the messages
 * that failed out ({@code ReportBatchItemFailures}). The event source mapping deletes the others.
 * Each invocation works only as long as its remaining time allows; see {@link PurgeProcessor}.
 */
public final class PurgeHandler implements RequestStreamHandler {
  /** Built in the execution environment's init phase, from its environment variables. */
  private static final class FromEnvironment {
    static final PurgeProcessor PROCESSOR = PurgeEnvironment.processor(System.getenv());
  }

  private final PurgeProcessor processor;

  public PurgeHandler() {
    this(FromEnvironment.PROCESSOR);
  }

  public PurgeHandler(PurgeProcessor processor) {
    this.processor = processor;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    JobBatch.serve(processor, input, output, context);
  }

  /** Processes one batch by the deadline, the end of the invocation. */
  public SqsBatchResponse handle(SqsEvent event, Deadline deadline) {
    return JobBatch.process(processor, event, deadline);
  }
}
