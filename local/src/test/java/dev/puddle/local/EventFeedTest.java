package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.Route;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.metastore.EventStore;
import dev.puddle.core.rest.CatalogApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The feed through the twin, Iceberg's own client making the changes: under 16 concurrent writers
 * and renames it holds exactly one event per acknowledged change and none for a refused one, each
 * table's commits in the order of its metadata log; a caller sees only the events of what it may
 * list; a query reaching back past the retention is 410, a bad token 400; and the relay delivers
 * every event to the twin's {@code puddle-events} queue as a CloudEvent.
 */
class EventFeedTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final int WRITERS = 16;

  private static CatalogApi root(String warehouse) {
    return CatalogApi.builder(
            new CatalogApi.Settings(LocalTwin.REALM, warehouse),
            TestTwin.get().database(),
            TestTwin.get().storage())
        .authenticator(RootCaller.of(LocalTwin.REALM))
        .build();
  }

  private static Response query(CatalogApi api, String warehouse, String body) {
    return api.handle(
        new Request(Route.QUERY_EVENTS, Map.of("prefix", warehouse), Map.of(), Map.of(), body));
  }

  /** Every event of the warehouse's catalog objects, page by page, oldest first. */
  private static List<JsonNode> all(CatalogApi api, String warehouse) throws Exception {
    List<JsonNode> events = new ArrayList<>();
    String token = null;
    while (true) {
      String body =
          "{\"page-size\":50,\"object-types\":[\"namespace\",\"table\",\"view\"]"
              + (token == null ? "" : ",\"continuation-token\":\"" + token + "\"")
              + "}";
      Response response = query(api, warehouse, body);
      assertThat(response.status()).as(response.body()).isEqualTo(200);
      JsonNode page = JSON.readTree(response.body());
      page.get("events").forEach(events::add);
      token = page.get("continuation-token").asText();
      if (page.get("events").isEmpty()) {
        return events;
      }
    }
  }

  @Test
  void concurrentWritersAndRenamesLeaveOneEventPerAcknowledgedChangeInMetadataLogOrder()
      throws Exception {
    String warehouse = TestTwin.newWarehouse("events-race");
    Namespace ns = Namespace.of("race");
    List<TableIdentifier> tables = new ArrayList<>();
    try (RESTCatalog setup = TestTwin.restCatalog(warehouse, Map.of())) {
      setup.createNamespace(ns);
      for (int i = 0; i < 4; i++) {
        TableIdentifier table = TableIdentifier.of(ns, "t" + i);
        setup.createTable(table, SCHEMA);
        tables.add(table);
      }
    }
    AtomicInteger acknowledged = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    Map<String, String> renamedTo = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    List<Future<?>> done = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      done.add(
          pool.submit(
              () -> {
                try (RESTCatalog catalog = TestTwin.restCatalog(warehouse, Map.of())) {
                  if (writer < 2) {
                    // two renames of their own tables, racing the commits
                    TableIdentifier from = TableIdentifier.of(ns, "r" + writer);
                    catalog.createTable(from, SCHEMA);
                    TableIdentifier to = TableIdentifier.of(ns, "r" + writer + "_renamed");
                    catalog.renameTable(from, to);
                    renamedTo.put(from.name(), to.name());
                    acknowledged.addAndGet(2);
                    return null;
                  }
                  for (int i = 0; i < 3; i++) {
                    Table table = catalog.loadTable(tables.get((writer + i) % tables.size()));
                    try {
                      // no retry: a conflict is refused and must leave no event
                      table.updateProperties().set("w" + writer, Integer.toString(i)).commit();
                      acknowledged.incrementAndGet();
                    } catch (CommitFailedException e) {
                      refused.incrementAndGet();
                    }
                  }
                }
                return null;
              }));
    }
    for (Future<?> future : done) {
      future.get();
    }
    pool.shutdown();

    List<JsonNode> events = all(root(warehouse), warehouse);
    // the setup's namespace and tables, then one event per acknowledged change
    assertThat(events).hasSize(1 + tables.size() + acknowledged.get());
    assertThat(events).extracting(e -> e.get("event-id").asText()).doesNotHaveDuplicates();
    try (RESTCatalog check = TestTwin.restCatalog(warehouse, Map.of())) {
      for (TableIdentifier table : tables) {
        TableMetadata metadata =
            ((HasTableOperations) check.loadTable(table)).operations().current();
        List<String> logged = new ArrayList<>();
        metadata.previousFiles().forEach(entry -> logged.add(entry.file()));
        logged.add(metadata.metadataFileLocation());
        List<String> inFeed =
            events.stream()
                .filter(e -> table.name().equals(e.at("/operation/identifier/name").asText()))
                .map(e -> e.at("/operation/x-puddle-metadata-location").asText())
                .toList();
        assertThat(inFeed).as("%s", table).containsExactlyElementsOf(logged);
      }
    }
    assertThat(events)
        .filteredOn(e -> e.at("/operation/operation-type").asText().equals("rename-table"))
        .extracting(e -> e.at("/operation/destination/name").asText())
        .containsExactlyInAnyOrderElementsOf(renamedTo.values());
    System.out.printf(
        "[events] %d writers: %d acknowledged, %d refused, %d events%n",
        WRITERS, acknowledged.get(), refused.get(), events.size());
  }

  @Test
  void aCallerSeesOnlyTheEventsOfWhatItMayList() throws Exception {
    String warehouse = TestTwin.newWarehouse("events-access");
    try (RESTCatalog catalog = TestTwin.restCatalog(warehouse, Map.of())) {
      for (String name : List.of("mine", "theirs")) {
        catalog.createNamespace(Namespace.of(name));
        catalog.createTable(TableIdentifier.of(name, "orders"), SCHEMA);
      }
    }
    Grantee grantee = Grantee.in(warehouse);
    grantee.grantOn("mine", Privilege.TABLE_LIST);
    CatalogApi api =
        CatalogApi.builder(
                new CatalogApi.Settings(LocalTwin.REALM, warehouse),
                TestTwin.get().database(),
                TestTwin.get().storage())
            .authenticator(grantee.authenticator())
            .build();

    Response response = query(api, warehouse, "{}");

    assertThat(response.status()).as(response.body()).isEqualTo(200);
    JsonNode events = JSON.readTree(response.body()).get("events");
    // its namespace and the table in it; nothing of the other namespace, no management change
    assertThat(events)
        .extracting(e -> e.at("/operation/operation-type").asText())
        .containsExactly("create-namespace", "create-table");
    assertThat(events.toString()).doesNotContain("theirs").doesNotContain("\"custom\"");
    // root, who manages access, sees the grant that made this possible
    assertThat(all(root(warehouse), warehouse)).hasSize(4);
    assertThat(
            query(root(warehouse), warehouse, "{\"operation-types\":[\"x-puddle-add-grant\"]}")
                .body())
        .contains("\"custom-type\":\"x-puddle-add-grant\"", "\"privilege\":\"TABLE_LIST\"");
  }

  @Test
  void pastTheRetentionIs410AndABadTokenIs400() throws Exception {
    String warehouse =
        TestTwin.newWarehouse("events-retention", Map.of(EventStore.RETENTION_PROPERTY, "0"));
    CatalogApi api = root(warehouse);
    String token =
        JSON.readTree(query(api, warehouse, "{}").body()).get("continuation-token").asText();
    // with a retention of zero days a token is expired once the clock has moved past its time
    Response expired = query(api, warehouse, "{\"continuation-token\":\"" + token + "\"}");
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (expired.status() == 200 && System.nanoTime() < deadline) {
      expired = query(api, warehouse, "{\"continuation-token\":\"" + token + "\"}");
    }
    Response since = query(api, warehouse, "{\"since-timestamp-ms\":1}");
    Response bad = query(api, warehouse, "{\"continuation-token\":\"not-a-token\"}");
    String otherWarehouse = TestTwin.newWarehouse("events-other");
    Response foreign =
        query(root(otherWarehouse), otherWarehouse, "{\"continuation-token\":\"" + token + "\"}");
    Response filter = query(api, warehouse, "{\"custom-filters\":{\"a\":\"b\"}}");

    assertThat(expired.status()).as(expired.body()).isEqualTo(410);
    assertThat(expired.body()).contains("EventsExpiredException");
    assertThat(since.status()).isEqualTo(410);
    assertThat(bad.status()).isEqualTo(400);
    assertThat(foreign.status()).isEqualTo(400);
    assertThat(filter.status()).isEqualTo(400);
  }

  @Test
  void theRelayDeliversEveryEventToTheTwinsQueueAsACloudEvent() throws Exception {
    String warehouse = TestTwin.newWarehouse("events-relay");
    try (RESTCatalog catalog = TestTwin.restCatalog(warehouse, Map.of())) {
      catalog.createNamespace(Namespace.of("relayed"));
    }
    LocalTwin twin = TestTwin.get();
    String queue = twin.events().eventsQueueUrl();
    Map<String, JsonNode> received = new HashMap<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    JsonNode mine = null;
    while (mine == null && System.nanoTime() < deadline) {
      for (var message :
          twin.purge()
              .sqs()
              .client()
              .receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10).waitTimeSeconds(1))
              .messages()) {
        JsonNode event = JSON.readTree(message.body());
        received.put(event.get("id").asText(), event);
        if ("relayed".equals(event.path("subject").asText())) {
          mine = event;
        }
      }
    }
    assertThat(mine).as("the create-namespace CloudEvent, among %s", received.keySet()).isNotNull();
    assertThat(mine.get("specversion").asText()).isEqualTo("1.0");
    assertThat(mine.get("type").asText()).isEqualTo("dev.puddle.catalog.create-namespace");
    assertThat(mine.at("/data/operation/namespace/0").asText()).isEqualTo("relayed");
    assertThat(mine.at("/data/event-id").asText()).isEqualTo(mine.get("id").asText());
  }
}
