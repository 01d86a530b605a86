package dev.puddle.local;

import dev.puddle.contract.EventRelayBatching;
import dev.puddle.core.aws.SqsEventRelay;
import dev.puddle.core.events.EventRelay;
import dev.puddle.core.events.EventRelayQueue;
import dev.puddle.core.events.EventSweep;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.EventStore;
import dev.puddle.functions.EventRelayHandler;
import dev.puddle.functions.EventSweepHandler;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The event relay of the local twin, laid out as on AWS but for its target: on the twin's SQS
 * server, the relay's queue of nudges ({@value #RELAY_QUEUE}, with its dead-letter queue), the
 * relay handler fed by a poller that plays Lambda's event source mapping (batching as the stack's,
 * {@link EventRelayBatching}), the event sweep on the purge sweep's schedule, and, instead of an
 * EventBridge bus, the queue {@value #EVENTS_QUEUE} the CloudEvents are published to, for people to
 * watch: {@code aws sqs receive-message --endpoint-url <sqs> --queue-url <url of puddle-events>}.
 */
public final class LocalEvents implements AutoCloseable {
  public static final String RELAY_QUEUE = "puddle-event-relay";
  public static final String EVENTS_QUEUE = "puddle-events";

  private final SqsEventRelay relayQueue;
  private final String eventsQueueUrl;
  private final PurgePoller poller;
  private final ScheduledExecutorService sweeper;

  private LocalEvents(
      SqsEventRelay relayQueue,
      String eventsQueueUrl,
      PurgePoller poller,
      ScheduledExecutorService sweeper) {
    this.relayQueue = relayQueue;
    this.eventsQueueUrl = eventsQueueUrl;
    this.poller = poller;
    this.sweeper = sweeper;
  }

  /** Creates the queues on {@code sqs} and starts the poller and the sweep. */
  public static LocalEvents start(LocalSqs sqs, LocalPurge.Options options, Database database) {
    LocalSqs.QueuePair relay =
        sqs.createQueues(RELAY_QUEUE, options.visibilityTimeout(), options.maxReceives());
    String events = sqs.client().createQueue(b -> b.queueName(EVENTS_QUEUE)).queueUrl();
    SqsEventRelay relayQueue = new SqsEventRelay(sqs.client(), relay.url());
    EventStore store = new EventStore(database);
    EventRelayHandler handler =
        new EventRelayHandler(new EventRelay(store, new SqsEventRelay(sqs.client(), events)));
    PurgePoller poller =
        new PurgePoller(
            sqs.client(),
            relay,
            handler,
            options.functionTimeout(),
            new PurgePoller.Batching(EventRelayBatching.BATCH_SIZE, EventRelayBatching.WINDOW));
    EventSweepHandler sweep =
        new EventSweepHandler(new EventSweep(store, relayQueue, options.sweepInterval()));
    // events committed while the twin was down: the queues are new
    relayQueue.nudge();
    poller.start();
    ScheduledExecutorService sweeper =
        LocalSchedule.every(
            "puddle-event-sweep", options.sweepInterval(), sweep, options.functionTimeout());
    return new LocalEvents(relayQueue, events, poller, sweeper);
  }

  /** Where committed changes nudge the relay. */
  public EventRelayQueue queue() {
    return relayQueue;
  }

  /** The queue the twin publishes its CloudEvents to. */
  public String eventsQueueUrl() {
    return eventsQueueUrl;
  }

  /** Stops the sweep and the poller; the SQS server is the purge side's to stop. */
  @Override
  public void close() {
    sweeper.shutdownNow();
    poller.close();
  }
}
