package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.purge.PurgeSweep;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The Lambda entry point of the purge sweep, invoked on a schedule (an EventBridge rule; the
 * event's content is not used): removes dropped objects whose retention has ended (recording their
 * purge jobs) and re-sends purge jobs whose message was never sent or was lost. Answers {@code
 * {"resent":n,"failed":m,"expired":k}}.
 */
public final class PurgeSweepHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Built in the execution environment's init phase, from its environment variables. */
  private static final class FromEnvironment {
    static final PurgeSweep SWEEP = PurgeEnvironment.sweep(System.getenv());
  }

  private final PurgeSweep sweep;

  public PurgeSweepHandler() {
    this(FromEnvironment.SWEEP);
  }

  public PurgeSweepHandler(PurgeSweep sweep) {
    this.sweep = sweep;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    input.transferTo(OutputStream.nullOutputStream());
    PurgeSweep.Result result = sweep.run();
    JSON.writeValue(
        output,
        JSON.createObjectNode()
            .put("resent", result.resent())
            .put("failed", result.failed())
            .put("expired", result.expired()));
  }
}
