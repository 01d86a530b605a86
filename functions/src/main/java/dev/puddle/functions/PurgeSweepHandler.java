package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.metastore.ScanPlans;
import dev.puddle.core.purge.PurgeSweep;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The Lambda entry point of the purge sweep, invoked on a schedule (an EventBridge rule; the
 * event's content is not used): removes dropped objects whose retention has ended (recording their
 * purge jobs), re-sends purge jobs whose message was never sent or was lost, and removes expired
 * scan plans. Answers {@code {"resent":n,"failed":m,"expired":k,"expiredPlans":p}}.
 */
public final class PurgeSweepHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The most expired scan plans one sweep removes. */
  private static final int EXPIRED_PLANS_LIMIT = 10_000;

  /** Built in the execution environment's init phase, from its environment variables. */
  private static final class FromEnvironment {
    static final PurgeSweepHandler HANDLER = PurgeEnvironment.sweepHandler(System.getenv());
  }

  private final PurgeSweep sweep;
  private final ScanPlans plans;

  public PurgeSweepHandler() {
    this(FromEnvironment.HANDLER.sweep, FromEnvironment.HANDLER.plans);
  }

  public PurgeSweepHandler(PurgeSweep sweep, ScanPlans plans) {
    this.sweep = sweep;
    this.plans = plans;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    input.transferTo(OutputStream.nullOutputStream());
    PurgeSweep.Result result = sweep.run();
    int expired = plans.removeExpired(EXPIRED_PLANS_LIMIT);
    JSON.writeValue(
        output,
        JSON.createObjectNode()
            .put("resent", result.resent())
            .put("failed", result.failed())
            .put("expired", result.expired())
            .put("expiredPlans", expired));
  }
}
