package dev.puddle.local;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.puddle.core.maintenance.BackgroundWork;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.PurgeJob;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.purge.PurgeSweep;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Soft delete and undrop, end to end in both metastore modes: tables written with Iceberg's own
 * client against the twin's PostgreSQL, S3 and SQS, dropped within their warehouse's {@code
 * drop.retention}, then undropped or left to the purge sweep, through the management API.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SoftDeleteTest {
  private static final Duration WAIT = Duration.ofSeconds(45);
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()), required(2, "day", Types.StringType.get()));
  private static final Namespace SALES = Namespace.of("sales");
  private static final TableIdentifier ORDERS = TableIdentifier.of(SALES, "orders");

  @RegisterExtension final Closing closing = new Closing();
  private TestTwin twin;
  private String warehouse;
  private RESTCatalog catalog;

  @ParameterizedTest
  @EnumSource(TestTwin.Mode.class)
  void anUndropWithinRetentionRestoresTheTableAsItWasWithItsGrants(TestTwin.Mode mode) {
    use(mode, Map.of("drop.retention", "P7D"));
    Table table = writtenTable(ORDERS);
    TableIdentifier other = TableIdentifier.of(SALES, "other");
    catalog.createTable(other, SCHEMA);
    addReadGrant("orders");
    Row before = row("orders");
    List<String> files = filesUnder(table.location());
    assertThat(files).hasSizeGreaterThan(3);

    assertThat(catalog.dropTable(ORDERS, true)).isTrue();

    // hidden from every Iceberg operation at once, its files and purge left alone
    assertThat(catalog.tableExists(ORDERS)).isFalse();
    assertThatThrownBy(() -> catalog.loadTable(ORDERS)).isInstanceOf(NoSuchTableException.class);
    assertThat(catalog.listTables(SALES)).containsExactly(other);
    assertThatThrownBy(() -> catalog.renameTable(ORDERS, TableIdentifier.of(SALES, "moved")))
        .isInstanceOf(NoSuchTableException.class);
    assertThat(catalog.dropTable(ORDERS, true)).isFalse();
    assertThat(catalog.viewExists(ORDERS)).isFalse();
    // a rename may take its name, and give it back
    catalog.renameTable(other, ORDERS);
    catalog.renameTable(ORDERS, other);
    assertThat(grantedTables()).isEmpty();
    assertThat(get("/purge-jobs").get("purge-jobs")).isEmpty();
    assertThat(filesUnder(table.location())).isEqualTo(files);
    // a new table may not take its files' place
    assertThatThrownBy(
            () ->
                catalog
                    .buildTable(TableIdentifier.of(SALES, "squatter"), SCHEMA)
                    .withLocation(table.location())
                    .create())
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("kept for undrop");

    JsonNode dropped = get("/dropped-objects").get("dropped-objects");
    assertThat(dropped).hasSize(1);
    assertThat(dropped.at("/0/id").asText()).isEqualTo(before.id().toString());
    assertThat(dropped.at("/0/kind").asText()).isEqualTo("table");
    assertThat(dropped.at("/0/identifier/name").asText()).isEqualTo("orders");
    assertThat(dropped.at("/0/dropped-by").asText()).isEqualTo("root");
    assertThat(dropped.at("/0/purge-requested").asBoolean()).isTrue();
    assertThat(
            Duration.between(
                Instant.parse(dropped.at("/0/dropped-at").asText()),
                Instant.parse(dropped.at("/0/purge-due").asText())))
        .isEqualTo(Duration.ofDays(7));

    // the name is free: a new table takes it, and the undrop onto it is refused
    Table recreated = catalog.createTable(ORDERS, SCHEMA);
    assertThat(recreated.uuid()).isNotEqualTo(table.uuid());
    HttpResponse<String> refused = undrop(before.id().toString(), null);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
    assertThat(refused.body()).contains("AlreadyExistsException");
    assertThat(catalog.loadTable(ORDERS).uuid()).isEqualTo(recreated.uuid());

    TableIdentifier restored = TableIdentifier.of(SALES, "orders_restored");
    HttpResponse<String> answer = undrop(before.id().toString(), restored);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);

    Table back = catalog.loadTable(restored);
    assertThat(back.uuid()).isEqualTo(table.uuid());
    assertThat(back.currentSnapshot().snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    Row after = row("orders_restored");
    assertThat(after.id()).isEqualTo(before.id());
    assertThat(after.metadataLocation()).isEqualTo(before.metadataLocation());
    assertThat(after.metadata()).isEqualTo(before.metadata());
    assertThat(after.createdAt()).isEqualTo(before.createdAt());
    assertThat(filesUnder(table.location())).isEqualTo(files);
    assertThat(grantedTables()).containsExactly("orders_restored");
    assertThat(get("/dropped-objects").get("dropped-objects")).isEmpty();
    assertThat(undrop(before.id().toString(), null).statusCode()).isEqualTo(404);
  }

  @ParameterizedTest
  @EnumSource(TestTwin.Mode.class)
  void atRetentionsEndAPurgedDropLeavesNothingAndAPlainDropLeavesOnlyItsFiles(TestTwin.Mode mode) {
    use(mode, Map.of("drop.retention", "PT3S"));
    Table purged = writtenTable(ORDERS);
    Table plain = writtenTable(TableIdentifier.of(SALES, "plain"));
    addReadGrant("orders");
    List<String> plainFiles = filesUnder(plain.location());
    UUID purgedId = row("orders").id();
    UUID plainId = row("plain").id();
    catalog.dropTable(ORDERS, true);
    catalog.dropTable(TableIdentifier.of(SALES, "plain"));
    assertThat(count("dropped_grant", "object_id", purgedId)).isEqualTo(1);

    PurgeSweep sweep =
        new BackgroundWork(database())
            .sweep(
                twin.local().purge().sweepQueue(),
                TestTwin.PURGE.sweep(),
                MaintenanceOutbox.Settings.DEFAULTS);
    waitFor(
        () -> {
          sweep.run();
          return get("/dropped-objects").get("dropped-objects").isEmpty() ? true : null;
        },
        "both drops expired");
    PurgeJobs jobs = new PurgeJobs(database());
    waitFor(
        () -> jobs.find(purgedId).filter(job -> job.state() == PurgeJob.State.DONE).orElse(null),
        "the purge of " + ORDERS);

    assertThat(filesUnder(purged.location())).isEmpty();
    for (UUID id : List.of(purgedId, plainId)) {
      assertThat(count("catalog_object", "id", id)).isZero();
      assertThat(count("dropped_object", "id", id)).isZero();
      assertThat(count("dropped_grant", "object_id", id)).isZero();
    }
    assertThat(jobs.find(plainId)).isEmpty();
    assertThat(filesUnder(plain.location())).isEqualTo(plainFiles);
  }

  @Test
  void withoutRetentionADropIsFinalAtOnceAsBefore() {
    use(TestTwin.Mode.JDBC, Map.of());
    writtenTable(ORDERS);
    UUID id = row("orders").id();

    catalog.dropTable(ORDERS, true);

    assertThat(get("/dropped-objects").get("dropped-objects")).isEmpty();
    assertThat(count("dropped_object", "id", id)).isZero();
    assertThat(count("catalog_object", "id", id)).isZero();
    assertThat(new PurgeJobs(database()).find(id)).isPresent();
  }

  @Test
  void aWarehouseMayPurgeRequestedDropsAtOnceWhileKeepingPlainOnes() {
    use(TestTwin.Mode.JDBC, Map.of("drop.retention", "P1D", "drop.purge-immediately", "true"));
    writtenTable(ORDERS);
    catalog.createTable(TableIdentifier.of(SALES, "plain"), SCHEMA);
    UUID purged = row("orders").id();
    UUID plain = row("plain").id();

    catalog.dropTable(ORDERS, true);
    catalog.dropTable(TableIdentifier.of(SALES, "plain"));

    assertThat(new PurgeJobs(database()).find(purged)).isPresent();
    assertThat(get("/dropped-objects").findValuesAsText("id")).containsExactly(plain.toString());
  }

  @Test
  void aNamespaceWhoseOnlyChildrenAreDroppedMayBeDroppedAndItsChildrenStillComeBack() {
    use(TestTwin.Mode.JDBC, Map.of("drop.retention", "P7D"));
    Table table = catalog.createTable(ORDERS, SCHEMA);
    View view =
        catalog
            .buildView(TableIdentifier.of(SALES, "daily"))
            .withSchema(SCHEMA)
            .withDefaultNamespace(SALES)
            .withQuery("spark", "SELECT 1")
            .create();
    UUID tableId = row("orders").id();
    UUID viewId = row("daily").id();
    catalog.dropTable(ORDERS);
    catalog.dropView(TableIdentifier.of(SALES, "daily"));

    assertThat(catalog.dropNamespace(SALES)).isTrue();

    HttpResponse<String> noNamespace = undrop(tableId.toString(), null);
    assertThat(noNamespace.statusCode()).as(noNamespace.body()).isEqualTo(404);
    assertThat(noNamespace.body()).contains("NoSuchNamespaceException");
    catalog.createNamespace(SALES);
    assertThat(undrop(tableId.toString(), null).statusCode()).isEqualTo(200);
    assertThat(undrop(viewId.toString(), null).statusCode()).isEqualTo(200);
    assertThat(catalog.loadTable(ORDERS).uuid()).isEqualTo(table.uuid());
    assertThat(catalog.loadView(TableIdentifier.of(SALES, "daily")).uuid()).isEqualTo(view.uuid());
  }

  @Test
  void aRetentionSetOnAnExistingWarehouseKeepsTheNextDrops() {
    use(TestTwin.Mode.JDBC, Map.of());
    catalog.createTable(ORDERS, SCHEMA);
    String properties = "/admin/v1/warehouses/" + warehouse + "/properties";

    HttpResponse<String> refused =
        send("POST", properties, "{\"updates\":{\"drop.retention\":\"-P1D\"}}");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    HttpResponse<String> updated =
        send("POST", properties, "{\"updates\":{\"drop.retention\":\"P1D\"}}");
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
    catalog.dropTable(ORDERS);

    assertThat(get("/dropped-objects").findValuesAsText("name")).containsExactly("orders");
  }

  @Test
  void aWarehouseWithAnInvalidRetentionIsRefused() {
    use(TestTwin.Mode.JDBC, Map.of());
    HttpResponse<String> response =
        send(
            "POST",
            "/admin/v1/warehouses",
            "{\"name\":\"bad-retention\",\"location\":\"s3://warehouse/bad\","
                + "\"properties\":{\"drop.retention\":\"a week\"}}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(response.body()).contains("drop.retention");
  }

  // ---------------------------------------------------------------------------------------------

  private void use(TestTwin.Mode mode, Map<String, String> properties) {
    twin = TestTwin.of(mode);
    warehouse = twin.warehouse("softdelete", properties);
    catalog = twin.catalog(warehouse, Map.of());
    closing.add(catalog);
    catalog.createNamespace(SALES);
  }

  private Database database() {
    return twin.local().database();
  }

  /** A table with two appends of a data file each, whose objects exist. */
  private Table writtenTable(TableIdentifier id) {
    Table table = catalog.createTable(id, SCHEMA);
    for (int i = 0; i < 2; i++) {
      String path =
          table.locationProvider().newDataLocation("part-" + UUID.randomUUID() + ".parquet");
      try (OutputStream out = twin.local().storage().io().newOutputFile(path).create()) {
        out.write("data".getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      table
          .newFastAppend()
          .appendFile(
              DataFiles.builder(PartitionSpec.unpartitioned())
                  .withPath(path)
                  .withFileSizeInBytes(4)
                  .withRecordCount(1)
                  .build())
          .commit();
    }
    return catalog.loadTable(id);
  }

  /** Every object under a location, with its size. */
  private List<String> filesUnder(String location) {
    SupportsPrefixOperations io = (SupportsPrefixOperations) twin.local().storage().io();
    return StreamSupport.stream(io.listPrefix(location + "/").spliterator(), false)
        .map(file -> file.location() + " " + file.size())
        .sorted()
        .toList();
  }

  /** The object's row as PostgreSQL holds it. */
  private record Row(UUID id, String metadataLocation, String metadata, String createdAt) {}

  /** The row of the warehouse's table or view {@code name} (of namespace sales). */
  private Row row(String name) {
    return database()
        .read(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT o.id, o.metadata_location, o.metadata, o.created_at::text"
                          + " FROM catalog_object o JOIN warehouse w ON w.id = o.warehouse_id"
                          + " WHERE w.name = ? AND o.name = ?")) {
                statement.setString(1, warehouse);
                statement.setString(2, name);
                try (ResultSet rs = statement.executeQuery()) {
                  assertThat(rs.next()).as("row of %s", name).isTrue();
                  return new Row(
                      rs.getObject(1, UUID.class),
                      rs.getString(2),
                      rs.getString(3),
                      rs.getString(4));
                }
              }
            });
  }

  private long count(String table, String column, UUID id) {
    return database()
        .read(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT count(*) FROM " + table + " WHERE " + column + " = ?")) {
                statement.setObject(1, id);
                try (ResultSet rs = statement.executeQuery()) {
                  rs.next();
                  return rs.getLong(1);
                }
              }
            });
  }

  /** A catalog role {@code readers} of the warehouse with TABLE_READ_DATA on a table of sales. */
  private void addReadGrant(String table) {
    assertThat(
            send(
                    "POST",
                    "/admin/v1/warehouses/" + warehouse + "/catalog-roles",
                    "{\"catalogRole\":{\"name\":\"readers\"}}")
                .statusCode())
        .isEqualTo(201);
    HttpResponse<String> granted =
        send(
            "PUT",
            "/admin/v1/warehouses/" + warehouse + "/catalog-roles/readers/grants",
            "{\"grant\":{\"type\":\"table\",\"namespace\":[\"sales\"],\"tableName\":\""
                + table
                + "\",\"privilege\":\"TABLE_READ_DATA\"}}");
    assertThat(granted.statusCode()).as(granted.body()).isEqualTo(204);
  }

  /** The tables the role {@code readers} holds a grant on. */
  private List<String> grantedTables() {
    HttpResponse<String> response =
        send("GET", "/admin/v1/warehouses/" + warehouse + "/catalog-roles/readers/grants", null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TwinHttp.json(response).get("grants").findValuesAsText("tableName");
  }

  private HttpResponse<String> undrop(String id, TableIdentifier destination) {
    String body =
        destination == null
            ? "{}"
            : "{\"destination\":{\"namespace\":[\""
                + destination.namespace().level(0)
                + "\"],\"name\":\""
                + destination.name()
                + "\"}}";
    return send(
        "POST", "/admin/v1/warehouses/" + warehouse + "/dropped-objects/" + id + "/undrop", body);
  }

  /** A management listing of the warehouse, e.g. {@code /dropped-objects}. */
  private JsonNode get(String listing) {
    HttpResponse<String> response =
        send("GET", "/admin/v1/warehouses/" + warehouse + listing, null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TwinHttp.json(response);
  }

  private HttpResponse<String> send(String method, String path, String body) {
    return TwinHttp.root(twin).send(method, path, body);
  }

  /** Polls until {@code probe} returns a value, within {@link #WAIT}. */
  private static <T> T waitFor(Supplier<T> probe, String what) {
    return Polling.waitFor(WAIT, Duration.ofMillis(100), probe, what);
  }
}
