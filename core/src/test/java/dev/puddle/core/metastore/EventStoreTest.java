package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.access.Grant;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Securable;
import dev.puddle.core.events.CatalogObjectType;
import dev.puddle.core.events.OperationType;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.access.CatalogRoles;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.metastore.access.PrivilegeGrants;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The feed as the store writes it: every change records its events in its own transaction (none for
 * a change refused or rolled back), a transaction's events share its request id and count, and a
 * page of the feed is read in commit order with the filters applied in the query.
 */
@ExtendWith(FreshDatabase.class)
class EventStoreTest {
  private static final Namespace NS = Namespace.of("sales");
  private static final TableIdentifier ORDERS = TableIdentifier.of(NS, "orders");
  private static final Change ALICE = new Change("req-1", "r", "alice", IdempotencyMark.NONE);

  private Database database;
  private EventStore events;
  private Namespaces namespaces;
  private CatalogObjects objects;
  private Warehouse warehouse;
  private Warehouse other;

  @BeforeEach
  void setUp(Database database) {
    this.database = database;
    events = new EventStore(database);
    namespaces = new Namespaces(database);
    objects = new CatalogObjects(database);
    Warehouses warehouses = new Warehouses(database);
    warehouse = warehouses.ensure("r", "wh", "s3://bucket/wh", Map.of());
    other = warehouses.ensure("r", "other", "s3://bucket/other", Map.of());
  }

  private List<StoredEvent> feed(Warehouse of) {
    return events.page(of, true, EventFilter.ALL, 0, 1000);
  }

  private List<String> operations(Warehouse of) {
    return feed(of).stream().map(e -> operationType(e.operationJson())).toList();
  }

  private static String operationType(String json) {
    try {
      return new ObjectMapper().readTree(json).get("operation-type").asText();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private CatalogObject table(TableIdentifier identifier) {
    return new CatalogObject(
        UUID.randomUUID(),
        identifier,
        Kind.TABLE,
        "s3://bucket/wh/sales/" + identifier.name(),
        true,
        "s3://bucket/wh/sales/" + identifier.name() + "/metadata/v1.json",
        "{\"table-uuid\":\"u-" + identifier.name() + "\"}");
  }

  @Test
  void everyChangeRecordsOneEventAndARefusedOneNone() {
    namespaces.create(warehouse, NS, Map.of("owner", "a"), ALICE);
    assertThatThrownBy(() -> namespaces.create(warehouse, NS, Map.of(), ALICE))
        .isInstanceOf(AlreadyExistsException.class);
    namespaces.updateProperties(warehouse, NS, Map.of("k", "v"), Set.of("owner", "gone"), ALICE);
    CatalogObject orders = table(ORDERS);
    objects.create(warehouse, orders, TestEvents.of(warehouse, orders), ALICE);
    assertThatThrownBy(() -> namespaces.drop(warehouse, NS, ALICE))
        .isInstanceOf(NamespaceNotEmptyException.class);
    TableIdentifier renamed = TableIdentifier.of(NS, "orders_v2");
    objects.rename(warehouse, ORDERS, renamed, Kind.TABLE, ALICE);
    assertThatThrownBy(() -> objects.rename(warehouse, ORDERS, renamed, Kind.TABLE, ALICE))
        .isInstanceOf(NoSuchTableException.class);
    assertThat(objects.drop(warehouse, renamed, Kind.TABLE, false, ALICE)).isPresent();
    assertThat(objects.drop(warehouse, renamed, Kind.TABLE, false, ALICE)).isEmpty();
    assertThat(namespaces.drop(warehouse, NS, ALICE)).isTrue();

    assertThat(operations(warehouse))
        .containsExactly(
            "create-namespace",
            "update-namespace-properties",
            "update-table",
            "rename-table",
            "drop-table",
            "drop-namespace");
    List<StoredEvent> feed = feed(warehouse);
    assertThat(feed).extracting(StoredEvent::requestId).containsOnly("req-1");
    assertThat(feed).extracting(StoredEvent::actorPrincipal).containsOnly("alice");
    assertThat(feed).extracting(StoredEvent::requestEventCount).containsOnly(1);
    assertThat(feed).extracting(StoredEvent::id).isSorted();
    assertThat(feed.get(1).operationJson())
        .contains("\"updated\":[\"k\"]", "\"removed\":[\"owner\"]", "\"missing\":[\"gone\"]");
    assertThat(feed.get(3).operationJson())
        .contains("\"table-uuid\":\"u-orders\"", "\"destination\":{\"namespace\":[\"sales\"]");
    assertThat(feed.get(3).name()).isEqualTo("orders_v2");
    assertThat(feed(other)).isEmpty();
  }

  @Test
  void aTransactionThatRollsBackLeavesNoEventAndOneOfManyChangesSharesItsRequest() {
    namespaces.create(warehouse, NS, Map.of(), Change.NONE);
    CatalogObject a = table(TableIdentifier.of(NS, "a"));
    CatalogObject b = table(TableIdentifier.of(NS, "b"));
    objects.create(warehouse, a, TestEvents.of(warehouse, a), Change.NONE);
    objects.create(warehouse, b, TestEvents.of(warehouse, b), Change.NONE);
    long before = feed(warehouse).size();

    // the swaps computed, then the transaction fails: nothing recorded
    assertThatThrownBy(
            () ->
                objects.swapAll(
                    warehouse,
                    List.of(a.identifier(), b.identifier()),
                    locked -> {
                      throw new IllegalStateException("refused after locking");
                    },
                    ALICE))
        .isInstanceOf(IllegalStateException.class);
    assertThat(feed(warehouse)).hasSize((int) before);

    objects.swapAll(
        warehouse,
        List.of(a.identifier(), b.identifier()),
        locked ->
            locked.stream()
                .map(
                    row ->
                        new CatalogObjects.Swap(
                            row,
                            row.location(),
                            row.metadataLocation() + ".2",
                            row.metadataJson(),
                            TestEvents.of(warehouse, row)))
                .toList(),
        ALICE);
    List<StoredEvent> last = feed(warehouse).subList((int) before, (int) before + 2);
    assertThat(last).extracting(StoredEvent::requestId).containsOnly("req-1");
    assertThat(last).extracting(StoredEvent::requestEventCount).containsOnly(2);
    assertThat(last).extracting(StoredEvent::name).containsExactly("a", "b");
    // changes outside a request get a request id of their own, per transaction
    assertThat(feed(warehouse).subList(0, 3))
        .extracting(StoredEvent::requestId)
        .doesNotContainNull()
        .doesNotHaveDuplicates();
  }

  /**
   * One transaction's events of every shape (two warehouses' feeds and the realm's, namespaces of
   * several levels, of none and none at all) go in as arrays (V20's record_catalog_events) and come
   * back as written: in order, each its own namespace, the operation's JSON kept as sent.
   */
  @Test
  void aTransactionsEventsOfEveryShapeKeepTheirValuesAndTheirOrder() {
    String json = "{\"operation-type\": \"custom\",  \"z\":\"q\\\"uote\\\\ \u00e9\", \"a\":1}";
    List<ChangeEvent> written =
        List.of(
            new ChangeEvent(
                "r",
                warehouse.id(),
                OperationType.UPDATE_TABLE,
                null,
                CatalogObjectType.TABLE,
                Namespace.of("a", "b,c", "{d}"),
                "t1",
                "uuid-1",
                "{\"operation-type\":\"update-table\"}"),
            new ChangeEvent(
                "r", null, OperationType.CUSTOM, "x-puddle-test", null, null, null, null, json),
            new ChangeEvent(
                "r",
                other.id(),
                OperationType.CREATE_NAMESPACE,
                null,
                CatalogObjectType.NAMESPACE,
                Namespace.of("solo"),
                null,
                null,
                "{\"operation-type\":\"create-namespace\"}"),
            new ChangeEvent(
                "r",
                warehouse.id(),
                OperationType.CREATE_TABLE,
                null,
                CatalogObjectType.TABLE,
                Namespace.empty(),
                "t2",
                "uuid-2",
                "{\"operation-type\":\"create-table\"}"));
    database.transaction(
        ALICE,
        (connection, recorded) -> {
          written.forEach(recorded::add);
          return null;
        });

    List<StoredEvent> mine = feed(warehouse);
    assertThat(mine).extracting(StoredEvent::name).containsExactly("t1", null, "t2");
    assertThat(mine).extracting(StoredEvent::id).isSorted();
    assertThat(mine.get(0).namespace()).isEqualTo(Namespace.of("a", "b,c", "{d}"));
    assertThat(mine.get(0).warehouseId()).isEqualTo(warehouse.id());
    assertThat(mine.get(1).namespace()).isNull();
    assertThat(mine.get(1).warehouseId()).isNull();
    assertThat(mine.get(1).objectType()).isNull();
    assertThat(mine.get(1).operationJson()).isEqualTo(json);
    assertThat(mine.get(2).namespace()).isEqualTo(Namespace.empty());
    assertThat(mine.get(2).objectType()).isEqualTo(CatalogObjectType.TABLE);
    assertThat(mine)
        .allSatisfy(
            e -> {
              assertThat(e.requestId()).isEqualTo("req-1");
              assertThat(e.requestEventCount()).isEqualTo(4);
              assertThat(e.actorPrincipal()).isEqualTo("alice");
              assertThat(e.actorRealm()).isEqualTo("r");
              assertThat(e.realm()).isEqualTo("r");
            });
    List<StoredEvent> theirs = feed(other);
    assertThat(theirs).hasSize(2);
    assertThat(theirs.get(1).namespace()).isEqualTo(Namespace.of("solo"));
    assertThat(theirs.get(1).objectType()).isEqualTo(CatalogObjectType.NAMESPACE);
    assertThat(theirs.get(1).name()).isNull();
    // the ids follow the order recorded, across the feeds
    assertThat(List.of(mine.get(0), mine.get(1), theirs.get(1), mine.get(2)))
        .extracting(StoredEvent::id)
        .isSorted();
    // what no read of the feed returns: the custom type and the object's uuid
    List<String> stored =
        database.read(
            connection -> {
              List<String> rows = new ArrayList<>();
              try (PreparedStatement statement =
                      connection.prepareStatement(
                          "SELECT operation_type || '/' || coalesce(custom_type, '-') || '/'"
                              + " || coalesce(object_uuid, '-') FROM catalog_event"
                              + " WHERE request_id = 'req-1' ORDER BY id");
                  ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                  rows.add(rs.getString(1));
                }
              }
              return rows;
            });
    assertThat(stored)
        .containsExactly(
            "update-table/-/uuid-1",
            "custom/x-puddle-test/-",
            "create-namespace/-/-",
            "create-table/-/uuid-2");
  }

  @Test
  void theFiltersAreAppliedInTheQueryAndPagesFollowOneAnother() {
    namespaces.create(warehouse, NS, Map.of(), ALICE);
    for (String name : List.of("a", "b", "c")) {
      CatalogObject row = table(TableIdentifier.of(NS, name));
      objects.create(warehouse, row, TestEvents.of(warehouse, row), ALICE);
    }
    objects.drop(warehouse, TableIdentifier.of(NS, "b"), Kind.TABLE, false, ALICE);

    EventFilter tables = new EventFilter(null, null, List.of("table"), null, null);
    assertThat(events.page(warehouse, true, tables, 0, 10))
        .extracting(StoredEvent::objectType)
        .containsOnly(CatalogObjectType.TABLE)
        .hasSize(4);
    EventFilter drops = new EventFilter(null, List.of("drop-table"), null, null, null);
    assertThat(events.page(warehouse, true, drops, 0, 10))
        .extracting(StoredEvent::name)
        .containsExactly("b");
    EventFilter byName = new EventFilter(null, null, null, List.of(List.of("sales", "b")), null);
    assertThat(events.page(warehouse, true, byName, 0, 10)).hasSize(2);
    EventFilter namespace = new EventFilter(null, null, null, List.of(List.of("sales")), null);
    assertThat(events.page(warehouse, true, namespace, 0, 10))
        .extracting(StoredEvent::objectType)
        .containsExactly(CatalogObjectType.NAMESPACE);
    EventFilter byUuid = new EventFilter(null, null, null, null, List.of("u-b"));
    assertThat(events.page(warehouse, true, byUuid, 0, 10))
        .extracting(StoredEvent::name)
        .containsExactly("b");
    EventFilter later =
        new EventFilter(System.currentTimeMillis() + 60_000, null, null, null, null);
    assertThat(events.page(warehouse, true, later, 0, 10)).isEmpty();

    List<StoredEvent> first = events.page(warehouse, true, EventFilter.ALL, 0, 2);
    List<StoredEvent> second =
        events.page(warehouse, true, EventFilter.ALL, first.getLast().id(), 10);
    assertThat(first).hasSize(2);
    assertThat(second).hasSize(3);
    assertThat(second.getFirst().id()).isGreaterThan(first.getLast().id());
  }

  @Test
  void managementChangesAreCustomOperationsOfTheWarehouseOrOfTheRealm() {
    new Principals(database).as(ALICE).create("r", "bob", Map.of());
    new CatalogRoles(database).as(ALICE).create(warehouse, "readers", Map.of());
    new PrivilegeGrants(database)
        .as(ALICE)
        .add(
            warehouse,
            "readers",
            new Grant(Privilege.CATALOG_READ_PROPERTIES, Securable.catalog()));
    assertThatThrownBy(
            () -> new CatalogRoles(database).as(ALICE).create(warehouse, "readers", Map.of()))
        .isInstanceOf(AlreadyExistsException.class);

    List<StoredEvent> withRealm = feed(warehouse);
    assertThat(withRealm)
        .extracting(e -> operationType(e.operationJson()))
        .containsOnly("custom")
        .hasSize(3);
    assertThat(withRealm.getFirst().warehouseId()).isNull();
    assertThat(withRealm.getFirst().operationJson())
        .isEqualTo(
            "{\"operation-type\":\"custom\",\"custom-type\":\"x-puddle-create-principal\","
                + "\"principal\":\"bob\"}");
    assertThat(withRealm.get(2).operationJson())
        .contains("\"privilege\":\"CATALOG_READ_PROPERTIES\"");
    assertThat(events.page(warehouse, false, EventFilter.ALL, 0, 10)).hasSize(2);
    // the realm's events show in every warehouse's feed, the warehouse's only in its own
    assertThat(feed(other)).hasSize(1);
    EventFilter grants = new EventFilter(null, List.of("x-puddle-add-grant"), null, null, null);
    assertThat(events.page(warehouse, true, grants, 0, 10)).hasSize(1);
  }

  @Test
  void retentionDeletesWhatIsOlderThanTheWarehouseKeepsIt() throws Exception {
    Warehouse brief =
        new Warehouses(database)
            .ensure("r", "brief", "s3://bucket/brief", Map.of(EventStore.RETENTION_PROPERTY, "1"));
    namespaces.create(warehouse, NS, Map.of(), ALICE);
    namespaces.create(brief, NS, Map.of(), ALICE);
    namespaces.create(brief, Namespace.of("fresh"), Map.of(), ALICE);
    age(Namespace.of("sales"), 3);

    assertThat(events.deleteExpired(30, 100)).isEqualTo(1);
    assertThat(feed(warehouse)).hasSize(1);
    assertThat(feed(brief))
        .extracting(StoredEvent::namespace)
        .containsExactly(Namespace.of("fresh"));
  }

  /** Makes the events of {@code namespace} {@code days} old, in every warehouse. */
  private void age(Namespace namespace, int days) throws Exception {
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE catalog_event SET created_at = now() - make_interval(days => ?)"
                      + " WHERE object_namespace = ?")) {
            statement.setInt(1, days);
            statement.setArray(2, Namespaces.levels(connection, namespace));
            return statement.executeUpdate();
          }
        });
  }
}
