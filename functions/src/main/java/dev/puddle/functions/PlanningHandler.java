package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.puddle.core.api.Deadline;
import dev.puddle.core.purge.PurgeProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The Lambda entry point of the planning function: an SQS event of the planning queue's messages
 * (each names a submitted scan plan) in, the messages that failed out ({@code
 * ReportBatchItemFailures}); the event source mapping deletes the others. A message that fails is
 * redelivered after the visibility timeout, and after the queue's {@code maxReceiveCount} goes to
 * the dead-letter queue, its plan failed. See {@link PurgeProcessor} and {@code PlanningWorker}.
 */
public final class PlanningHandler implements RequestStreamHandler {
  /** Built in the execution environment's init phase, from its environment variables. */
  private static final class FromEnvironment {
    static final PurgeProcessor PROCESSOR = PlanningEnvironment.processor(System.getenv());
  }

  private final PurgeProcessor processor;

  public PlanningHandler() {
    this(FromEnvironment.PROCESSOR);
  }

  public PlanningHandler(PurgeProcessor processor) {
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
