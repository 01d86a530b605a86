package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.events.EventSweep;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The Lambda entry point of the event sweep, invoked on the schedule the purge sweep runs on (the
 * event's content is not used): nudges the relay when an event has waited too long, and deletes
 * events past their warehouse's retention. Answers {@code {"nudged":b,"deleted":n}}.
 */
public final class EventSweepHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Built in the execution environment's init phase, from its environment variables. */
  private static final class FromEnvironment {
    static final EventSweep SWEEP = EventsEnvironment.sweep(System.getenv());
  }

  private final EventSweep sweep;

  public EventSweepHandler() {
    this(FromEnvironment.SWEEP);
  }

  public EventSweepHandler(EventSweep sweep) {
    this.sweep = sweep;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    input.transferTo(OutputStream.nullOutputStream());
    EventSweep.Result result = sweep.run();
    JSON.writeValue(
        output,
        JSON.createObjectNode().put("nudged", result.nudged()).put("deleted", result.deleted()));
  }
}
