package dev.puddle.core.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.aws.EventBridgePublisher;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.EventFilter;
import dev.puddle.core.metastore.EventStore;
import dev.puddle.core.metastore.FreshDatabase;
import dev.puddle.core.metastore.IdempotencyMark;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.StoredEvent;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The relay, through the real EventBridge SDK client against an endpoint speaking EventBridge's
 * JSON protocol: every event goes out once as a CloudEvents 1.0 envelope, in commit order per
 * object; an invocation killed between publish and mark leaves the events to the next, which
 * publishes them again; a refused entry is published again without overtaking its object's later
 * events; one invocation relays at a time.
 */
@ExtendWith(FreshDatabase.class)
class EventRelayTest {
  private static final Change ALICE = new Change("req-7", "r", "alice", IdempotencyMark.NONE);

  private EventBridgeTestEndpoint bridge;
  private EventBridgePublisher publisher;
  private EventStore store;
  private Namespaces namespaces;
  private Warehouse warehouse;

  @BeforeEach
  void setUp(Database database) {
    bridge = EventBridgeTestEndpoint.start();
    publisher = new EventBridgePublisher(bridge.client(), "puddle-events");
    store = new EventStore(database);
    namespaces = new Namespaces(database);
    warehouse = new Warehouses(database).ensure("r", "wh", "s3://bucket/wh", Map.of());
  }

  @AfterEach
  void tearDown() {
    publisher.close();
    bridge.close();
  }

  private List<String> published() {
    return bridge.accepted().stream().map(e -> e.detail().get("id").asText()).toList();
  }

  private List<String> feedIds() {
    return store.page(warehouse, true, EventFilter.ALL, 0, 1000).stream()
        .map(StoredEvent::eventId)
        .toList();
  }

  @Test
  void everyEventGoesOutOnceAsACloudEventInCommitOrder() {
    for (int i = 0; i < 23; i++) {
      namespaces.create(warehouse, Namespace.of("ns" + i), Map.of(), ALICE);
    }
    namespaces.updateProperties(warehouse, Namespace.of("ns3"), Map.of("k", "v"), Set.of(), ALICE);

    EventRelay.Result result = new EventRelay(store, publisher).run(Deadline.none());

    assertThat(result).isEqualTo(new EventRelay.Result(24, false));
    assertThat(published()).containsExactlyElementsOf(feedIds());
    assertThat(new EventRelay(store, publisher).run(Deadline.none()).published()).isZero();
    EventBridgeTestEndpoint.Entry last = bridge.accepted().getLast();
    assertThat(last.busName()).isEqualTo("puddle-events");
    assertThat(last.source()).isEqualTo(EventBridgePublisher.SOURCE);
    assertThat(last.detailType()).isEqualTo("dev.puddle.catalog.update-namespace-properties");
    assertThat(last.detail().get("specversion").asText()).isEqualTo("1.0");
    assertThat(last.detail().get("source").asText())
        .isEqualTo("puddle:r/warehouses/" + warehouse.id());
    assertThat(last.detail().get("subject").asText()).isEqualTo("ns3");
    assertThat(last.detail().at("/data/request-id").asText()).isEqualTo("req-7");
    assertThat(last.detail().at("/data/actor/principal").asText()).isEqualTo("alice");
    assertThat(last.detail().at("/data/operation/updated/0").asText()).isEqualTo("k");
  }

  @Test
  void aRelayKilledBetweenPublishAndMarkHasTheNextOnePublishAgain() {
    namespaces.create(warehouse, Namespace.of("a"), Map.of(), ALICE);
    namespaces.create(warehouse, Namespace.of("b"), Map.of(), ALICE);
    EventPublisher dies =
        batch -> {
          publisher.publish(batch);
          throw new IllegalStateException("the function died before marking");
        };

    assertThatThrownBy(() -> new EventRelay(store, dies).run(Deadline.none()))
        .isInstanceOf(IllegalStateException.class);
    assertThat(store.unpublished(10)).hasSize(2);
    EventRelay.Result again = new EventRelay(store, publisher).run(Deadline.none());

    assertThat(again.published()).isEqualTo(2);
    // at least once: each event twice, the same id both times, for consumers to dedupe on
    assertThat(published())
        .containsExactly(feedIds().get(0), feedIds().get(1), feedIds().get(0), feedIds().get(1));
    assertThat(store.unpublished(10)).isEmpty();
  }

  @Test
  void aRefusedEntryGoesOutAgainBeforeItsObjectsLaterEvents() {
    Namespace a = Namespace.of("a");
    namespaces.create(warehouse, a, Map.of(), ALICE);
    namespaces.create(warehouse, Namespace.of("b"), Map.of(), ALICE);
    namespaces.updateProperties(warehouse, a, Map.of("k", "v"), Set.of(), ALICE);
    List<String> feed = feedIds();
    bridge.refuse(feed.get(0));

    EventRelay.Result refused = new EventRelay(store, publisher).run(Deadline.none());
    assertThat(refused).isEqualTo(new EventRelay.Result(0, true));
    // the batch stopped before a's second event: b went through, a's update did not
    assertThat(published()).containsExactly(feed.get(1));

    bridge.accept(feed.get(0));
    new EventRelay(store, publisher).run(Deadline.none());
    assertThat(published()).containsExactly(feed.get(1), feed.get(0), feed.get(1), feed.get(2));
    assertThat(published().indexOf(feed.get(0))).isLessThan(published().indexOf(feed.get(2)));
  }

  @Test
  void oneInvocationRelaysAtATime() {
    namespaces.create(warehouse, Namespace.of("a"), Map.of(), ALICE);
    UUID other = UUID.randomUUID();
    assertThat(store.claimRelay(other, Duration.ofMinutes(1))).isTrue();

    assertThat(new EventRelay(store, publisher).run(Deadline.none()))
        .isEqualTo(new EventRelay.Result(0, false));
    assertThat(published()).isEmpty();
    // a claim that outlived its invocation marks nothing once another has taken over
    store.releaseRelay(other);
    assertThat(new EventRelay(store, publisher).run(Deadline.none()).published()).isEqualTo(1);
    assertThat(store.markPublished(other, List.of(1L))).isFalse();
  }

  @Test
  void anEventCommittedWhileAnotherInvocationWasRefusedIsPublishedByTheHolder(Database database)
      throws SQLException {
    namespaces.create(warehouse, Namespace.of("a"), Map.of(), ALICE);
    EventRelay.Result[] refused = {null};
    // the holder's own store, on connections that, just before it lets go of the relay, have a
    // change commit and another invocation (its nudge) find the relay claimed, as happens when the
    // change commits after the holder's last read
    String url = database.read(connection -> connection.getMetaData().getURL());
    Database.ConnectionFactory plain = PostgresConnections.factory(url, "postgres", null);
    Runnable beforeRelease =
        () -> {
          if (refused[0] == null) {
            namespaces.create(warehouse, Namespace.of("late"), Map.of(), ALICE);
            refused[0] = new EventRelay(store, publisher).run(Deadline.none());
          }
        };
    try (Database holders = new Database(() -> beforeReleasing(plain.open(), beforeRelease), 2)) {
      EventRelay.Result result =
          new EventRelay(new EventStore(holders), publisher).run(Deadline.none());

      assertThat(refused[0]).isEqualTo(new EventRelay.Result(0, false));
      assertThat(result).isEqualTo(new EventRelay.Result(2, false));
    }
    assertThat(store.unpublished(10)).isEmpty();
    assertThat(published()).containsExactlyElementsOf(feedIds());
  }

  /** {@code connection}, running {@code hook} before each statement that lets go of the relay. */
  private static Connection beforeReleasing(Connection connection, Runnable hook) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("prepareStatement")
                  && ((String) args[0]).startsWith("UPDATE event_relay SET claim_id = NULL")) {
                hook.run();
              }
              try {
                return method.invoke(connection, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void theSweepNudgesForEventsLeftWaitingAndDeletesExpiredOnes() {
    namespaces.create(warehouse, Namespace.of("a"), Map.of(), ALICE);
    int[] nudges = {0};
    EventSweep sweep = new EventSweep(store, delay -> nudges[0]++, Duration.ZERO);

    assertThat(sweep.run()).isEqualTo(new EventSweep.Result(true, 0));
    new EventRelay(store, publisher).run(Deadline.none());
    assertThat(sweep.run()).isEqualTo(new EventSweep.Result(false, 0));
    assertThat(nudges[0]).isEqualTo(1);
  }
}
