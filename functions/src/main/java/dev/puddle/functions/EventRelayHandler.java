package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.api.Deadline;
import dev.puddle.core.events.EventRelay;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;

/**
 * The Lambda entry point of the event relay: an SQS event of nudges in (their content is not used),
 * the change events published until the invocation's time runs out. While events are left (time ran
 * out, or EventBridge refused an entry), the batch's messages are reported failed, so SQS delivers
 * them again after the visibility timeout; after {@code maxReceiveCount} deliveries they go to the
 * dead-letter queue, whose alarm says the relay is stuck.
 */
public final class EventRelayHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** What the relay keeps back of its time to mark the last batch. */
  private static final double RESERVE = 0.2;

  /** Built in the execution environment's init phase, from its environment variables. */
  private static final class FromEnvironment {
    static final EventRelay RELAY = EventsEnvironment.relay(System.getenv());
  }

  private final EventRelay relay;

  public EventRelayHandler() {
    this(FromEnvironment.RELAY);
  }

  public EventRelayHandler(EventRelay relay) {
    this.relay = relay;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    SqsEvent event = JSON.readValue(input, SqsEvent.class);
    Deadline deadline =
        Deadline.in(Duration.ofMillis(context.getRemainingTimeInMillis())).withReserve(RESERVE);
    JSON.writeValue(output, handle(event, deadline));
  }

  /** Relays by the deadline; the nudges come back while events are left. */
  public SqsBatchResponse handle(SqsEvent event, Deadline deadline) {
    EventRelay.Result result = relay.run(deadline);
    List<SqsEvent.Message> messages = event.records() == null ? List.of() : event.records();
    return new SqsBatchResponse(
        result.more()
            ? messages.stream().map(m -> new SqsBatchResponse.ItemFailure(m.messageId())).toList()
            : List.of());
  }
}
