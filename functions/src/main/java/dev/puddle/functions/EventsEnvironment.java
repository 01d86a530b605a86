package dev.puddle.functions;

import dev.puddle.contract.EnvironmentVariable;
import dev.puddle.core.aws.EventBridgePublisher;
import dev.puddle.core.aws.SqsEventRelay;
import dev.puddle.core.aws.SqsPurgeQueue;
import dev.puddle.core.events.EventRelay;
import dev.puddle.core.events.EventRelayQueue;
import dev.puddle.core.events.EventSweep;
import dev.puddle.core.metastore.EventStore;
import java.time.Duration;
import java.util.Map;

/**
 * Wires the event relay's queue, the relay function and the event sweep from environment variables,
 * once per execution environment. Every setting is an {@link EnvironmentVariable}.
 */
final class EventsEnvironment {
  private EventsEnvironment() {}

  /** The queue committed changes nudge the relay through; null when none is configured. */
  static EventRelayQueue queueOrNull(Map<String, String> env) {
    return EnvironmentVariable.EVENT_RELAY_QUEUE_URL.in(env).isEmpty() ? null : queue(env);
  }

  static EventRelay relay(Map<String, String> env) {
    Environment environment = new Environment(env);
    return new EventRelay(
        new EventStore(environment.database()),
        new EventBridgePublisher(
            EventBridgePublisher.awsClient(environment.region()),
            environment.required(EnvironmentVariable.EVENT_BUS_NAME)));
  }

  static EventSweep sweep(Map<String, String> env) {
    Environment environment = new Environment(env);
    return new EventSweep(
        new EventStore(environment.database()),
        queue(env),
        Duration.ofSeconds(environment.intValue(EnvironmentVariable.EVENT_SWEEP_GRACE_SECONDS)));
  }

  private static EventRelayQueue queue(Map<String, String> env) {
    Environment environment = new Environment(env);
    return new SqsEventRelay(
        SqsPurgeQueue.awsClient(environment.region()),
        environment.required(EnvironmentVariable.EVENT_RELAY_QUEUE_URL));
  }
}
