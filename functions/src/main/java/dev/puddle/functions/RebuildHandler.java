package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.recovery.Rebuild;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The Lambda entry point of a rebuild from the warehouse, invoked by an operator ({@code aws lambda
 * invoke}, authorized by IAM: the metastore is empty, so there is no catalog principal to ask). The
 * event is {@code {}} or {@code {"force":true}}; the answer is the rebuild's JSON report, or {@code
 * {"error":"…"}} when it refused to run (a metastore that is not empty, unforced).
 */
public final class RebuildHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Built in the execution environment's init phase, from its environment variables. */
  private static final class FromEnvironment {
    static final RebuildHandler HANDLER = RecoveryEnvironment.rebuildHandler(System.getenv());
  }

  private final Rebuild rebuild;

  public RebuildHandler() {
    this(FromEnvironment.HANDLER.rebuild);
  }

  public RebuildHandler(Rebuild rebuild) {
    this.rebuild = rebuild;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    byte[] event = input.readAllBytes();
    JsonNode request = event.length == 0 ? JSON.createObjectNode() : JSON.readTree(event);
    boolean force = request != null && request.path("force").asBoolean(false);
    try {
      JSON.writeValue(output, rebuild.run(force));
    } catch (Rebuild.NotEmptyException e) {
      JSON.writeValue(output, JSON.createObjectNode().put("error", e.getMessage()));
    }
  }
}
