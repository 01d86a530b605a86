package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.events.CatalogObjectType;
import dev.puddle.core.events.OperationType;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.ChangeEvent;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.EventFilter;
import dev.puddle.core.metastore.EventStore;
import dev.puddle.core.metastore.IdempotencyMark;
import dev.puddle.core.metastore.Migrations;
import dev.puddle.core.metastore.StoredEvent;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.dataapi.DataApiConnections;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.junit.jupiter.api.Test;

/**
 * A change's events written through the RDS Data API stand-in: the arrays of {@code
 * record_catalog_events} (V20) travel as array literals in string parameters, nulls among their
 * elements (a realm-wide event has no warehouse, no object, no namespace) and an operation JSON of
 * quotes and backslashes included, and come back as written, in order.
 */
class DataApiEventsTest {
  @Test
  void eventsOfEveryShapeGoInAsArraysOverTheDataApi() throws Exception {
    String json = "{\"operation-type\": \"custom\", \"z\":\"q\\\"uote\\\\ \u00e9\"}";
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        LocalDataApi endpoint =
            LocalDataApi.start(postgres.getJdbcUrl("postgres", "postgres"), "postgres");
        DataApiConnections connections = endpoint.connections(DataApiConnections.Resume.DEFAULT);
        Database database = new Database(connections, 2)) {
      Migrations.migrate(database);
      Warehouse warehouse = new Warehouses(database).ensure("r", "wh", "s3://b/wh", Map.of());
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
                  warehouse.id(),
                  OperationType.CREATE_TABLE,
                  null,
                  CatalogObjectType.TABLE,
                  Namespace.empty(),
                  "t2",
                  "uuid-2",
                  "{\"operation-type\":\"create-table\"}"));
      database.transaction(
          new Change("req-1", "r", "alice", IdempotencyMark.NONE),
          (connection, events) -> {
            written.forEach(events::add);
            return null;
          });

      List<StoredEvent> feed =
          new EventStore(database).page(warehouse, true, EventFilter.ALL, 0, 100);
      assertThat(feed).extracting(StoredEvent::name).containsExactly("t1", null, "t2");
      assertThat(feed).extracting(StoredEvent::id).isSorted();
      assertThat(feed.get(0).namespace()).isEqualTo(Namespace.of("a", "b,c", "{d}"));
      assertThat(feed.get(1).warehouseId()).isNull();
      assertThat(feed.get(1).namespace()).isNull();
      assertThat(feed.get(1).objectType()).isNull();
      assertThat(feed.get(1).operationJson()).isEqualTo(json);
      assertThat(feed.get(2).namespace()).isEqualTo(Namespace.empty());
      assertThat(feed).extracting(StoredEvent::requestEventCount).containsOnly(3);
      assertThat(feed).extracting(StoredEvent::actorPrincipal).containsOnly("alice");
    }
  }
}
