package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.contract.Route;
import dev.puddle.core.metastore.Database;
import dev.puddle.functions.CatalogHandler;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What an execution environment keeps of the table versions it saw (load bodies, parsed metadata)
 * is used only while that version is current. Two handlers with their own metastore connections
 * stand for two Lambda instances: whatever one commits, the other's next request sees.
 */
class KeptVersionsTest {
  private Database firstDatabase;
  private Database secondDatabase;
  private CatalogHandler first;
  private CatalogHandler second;
  private String warehouse;

  @BeforeEach
  void setUp() {
    warehouse = TestTwin.newWarehouse("kept");
    firstDatabase = TestTwin.ownDatabase();
    secondDatabase = TestTwin.ownDatabase();
    first = TestTwin.rootHandler(firstDatabase, warehouse);
    second = TestTwin.rootHandler(secondDatabase, warehouse);
    expect(send(first, Route.CREATE_NAMESPACE, Map.of(), "{\"namespace\":[\"sales\"]}"), 200);
    expect(send(first, Route.CREATE_TABLE, namespace(), createTable("orders")), 200);
  }

  @AfterEach
  void tearDown() {
    firstDatabase.close();
    secondDatabase.close();
  }

  @Test
  void aVersionAlreadyAnsweredIsAnsweredAgainWithoutReadingItsMetadata() {
    Invocations.Answer answered = load(first, "orders");
    // the stored JSON changes behind the catalog's back, its version (location) does not: only
    // an instance that reads the metadata again can see it
    TestTwin.admin(
        "UPDATE catalog_object SET metadata = jsonb_set(metadata::jsonb,"
            + " '{properties}', '{\"k\":\"behind\"}')::text WHERE name = 'orders'"
            + " AND warehouse_id = (SELECT id FROM warehouse WHERE name = '"
            + warehouse
            + "')");

    assertThat(load(first, "orders").body()).isEqualTo(answered.body());
    assertThat(property(load(second, "orders"))).isEqualTo("behind");
  }

  @Test
  void aCommitOnAnotherInstanceIsSeenOnTheNextLoad() {
    load(first, "orders");
    expect(send(second, Route.UPDATE_TABLE, table("orders"), setProperty("k", "v1")), 200);

    assertThat(property(load(first, "orders"))).isEqualTo("v1");
  }

  @Test
  void aCommitBuildsOnTheCurrentVersionNotTheOneItKept() {
    expect(send(first, Route.UPDATE_TABLE, table("orders"), setProperty("a", "1")), 200);
    expect(send(second, Route.UPDATE_TABLE, table("orders"), setProperty("b", "2")), 200);

    Invocations.Answer committed =
        send(first, Route.UPDATE_TABLE, table("orders"), setProperty("c", "3"));

    expect(committed, 200);
    assertThat(committed.json().at("/metadata/properties").toString())
        .contains("\"a\":\"1\"", "\"b\":\"2\"", "\"c\":\"3\"");
    assertThat(load(second, "orders").json().at("/metadata/metadata-log").size())
        .as("three commits after the create")
        .isEqualTo(3);
  }

  @Test
  void aCommitAnswersWithWhatTheNextLoadAnswers() {
    Invocations.Answer committed =
        send(first, Route.UPDATE_TABLE, table("orders"), setProperty("k", "v1"));

    Invocations.Answer kept = load(first, "orders");
    Invocations.Answer read = load(second, "orders");

    assertThat(kept.body()).isEqualTo(committed.body()).isEqualTo(read.body());
  }

  @Test
  void aTableReCreatedUnderTheNameIsANewTable() {
    expect(send(first, Route.UPDATE_TABLE, table("orders"), setProperty("k", "old")), 200);
    load(first, "orders");
    expect(
        send(
            second,
            Route.RENAME_TABLE,
            Map.of(),
            "{\"source\":{\"namespace\":[\"sales\"],\"name\":\"orders\"},"
                + "\"destination\":{\"namespace\":[\"sales\"],\"name\":\"archived\"}}"),
        204);
    expect(send(second, Route.CREATE_TABLE, namespace(), createTable("orders")), 200);

    Invocations.Answer reloaded = load(first, "orders");

    assertThat(reloaded.json().at("/metadata/properties/k").isMissingNode()).isTrue();
    assertThat(property(load(first, "archived"))).isEqualTo("old");
  }

  private Invocations.Answer load(CatalogHandler handler, String name) {
    Invocations.Answer answer = send(handler, Route.LOAD_TABLE, table(name), null);
    expect(answer, 200);
    return answer;
  }

  private static String property(Invocations.Answer loaded) {
    return loaded.json().at("/metadata/properties/k").asText();
  }

  private Invocations.Answer send(
      CatalogHandler handler, Route route, Map<String, String> path, String body) {
    Map<String, String> all = new HashMap<>(path);
    all.put("prefix", warehouse);
    return Invocations.invoke(handler, Invocations.event(route, all, body, Map.of()), null);
  }

  private static Map<String, String> namespace() {
    return Map.of("namespace", "sales");
  }

  private static Map<String, String> table(String name) {
    return Map.of("namespace", "sales", "table", name);
  }

  private static String createTable(String name) {
    return "{\"name\":\""
        + name
        + "\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
        + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}";
  }

  private static String setProperty(String key, String value) {
    return "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
        + "\"updates\":{\""
        + key
        + "\":\""
        + value
        + "\"}}]}";
  }

  private static void expect(Invocations.Answer answer, int status) {
    assertThat(answer.status()).as("%s %s", answer.headers(), answer.body()).isEqualTo(status);
  }
}
