package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.access.Grant;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Securable;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.access.CatalogRoles;
import dev.puddle.core.metastore.access.PrivilegeGrants;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Dropped objects kept for undrop: a drop within retention moves the row and its grants out of the
 * catalog, an undrop moves them back, an expiry removes them with their purge job, a catalog role
 * deleted meanwhile takes its kept grants with it, and their namespace may go but not their
 * warehouse.
 */
@ExtendWith(FreshDatabase.class)
class DroppedObjectsTest {
  private static final Namespace NS = Namespace.of("sales");
  private static final TableIdentifier ORDERS = TableIdentifier.of(NS, "orders");

  private Database database;
  private CatalogObjects objects;
  private DroppedObjects dropped;
  private Warehouses warehouses;
  private Warehouse warehouse;

  @BeforeEach
  void setUp(Database database) {
    this.database = database;
    objects = new CatalogObjects(database);
    dropped = new DroppedObjects(database);
    warehouses = new Warehouses(database);
    warehouse =
        warehouses.ensure("r", "wh", "s3://bucket/wh", Map.of(DropRetention.RETENTION, "P1D"));
    new Namespaces(database).create(warehouse, NS, Map.of(), Change.NONE);
  }

  @Test
  void aDropWithinRetentionKeepsTheRowAndItsGrantsForTheUndrop() {
    CatalogObject orders = create(ORDERS);
    new CatalogRoles(database).create(warehouse, "readers", Map.of());
    PrivilegeGrants grants = new PrivilegeGrants(database);
    Grant read = new Grant(Privilege.TABLE_READ_DATA, Securable.table(ORDERS));
    grants.add(warehouse, "readers", read);

    assertThat(drop(ORDERS, true)).contains(new CatalogObjects.Dropped(orders.id(), false));

    assertThat(objects.find(warehouse, ORDERS)).isEmpty();
    assertThat(grants.list(warehouse, "readers")).isEmpty();
    assertThat(new PurgeJobs(database).find(orders.id())).isEmpty();
    DroppedObject kept = dropped.list(warehouse, null, 10).items().getFirst();
    assertThat(kept.id()).isEqualTo(orders.id());
    assertThat(kept.identifier()).isEqualTo(ORDERS);
    assertThat(kept.droppedBy()).isEqualTo("alice");
    assertThat(kept.purgeRequested()).isTrue();

    dropped.undrop(warehouse, orders.id(), null, Change.NONE);

    assertThat(objects.find(warehouse, ORDERS)).contains(orders);
    assertThat(grants.list(warehouse, "readers")).containsExactly(read);
    assertThat(dropped.list(warehouse, null, 10).items()).isEmpty();
    assertThatThrownBy(() -> dropped.undrop(warehouse, orders.id(), null, Change.NONE))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void anUndropOntoATakenNameChangesNothing() {
    CatalogObject orders = create(ORDERS);
    drop(ORDERS, false);
    CatalogObject successor = create(ORDERS);

    assertThatThrownBy(() -> dropped.undrop(warehouse, orders.id(), null, Change.NONE))
        .isInstanceOf(AlreadyExistsException.class);

    assertThat(objects.find(warehouse, ORDERS)).contains(successor);
    assertThat(dropped.list(warehouse, null, 10).items())
        .extracting(DroppedObject::id)
        .containsExactly(orders.id());
  }

  @Test
  void aCatalogRoleDeletedWhileTheObjectIsDroppedTakesItsKeptGrants() {
    CatalogObject orders = create(ORDERS);
    CatalogRoles roles = new CatalogRoles(database);
    roles.create(warehouse, "readers", Map.of());
    new PrivilegeGrants(database)
        .add(warehouse, "readers", new Grant(Privilege.TABLE_READ_DATA, Securable.table(ORDERS)));
    drop(ORDERS, false);

    roles.delete(warehouse, "readers");

    assertThat(count("SELECT count(*) FROM dropped_grant")).isZero();
    dropped.undrop(warehouse, orders.id(), null, Change.NONE);
    assertThat(objects.find(warehouse, ORDERS)).contains(orders);
  }

  @Test
  void anExpiryRemovesDueObjectsAndRecordsThePurgesAsked() {
    warehouses.updateProperties(
        "r", "wh", Map.of(DropRetention.RETENTION, "PT0.001S"), Set.of(), Change.NONE);
    CatalogObject purged = create(ORDERS);
    CatalogObject plain = create(TableIdentifier.of(NS, "plain"));
    drop(ORDERS, true);
    drop(plain.identifier(), false);
    awaitDue();

    DroppedObjects.Expired expired = dropped.expire(1000);

    assertThat(expired.removed()).isEqualTo(2);
    assertThat(expired.jobs()).containsExactly(purged.id());
    PurgeJob job = new PurgeJobs(database).find(purged.id()).orElseThrow();
    assertThat(job.identifier()).isEqualTo(ORDERS.toString());
    assertThat(job.metadataLocation()).isEqualTo(purged.metadataLocation());
    assertThat(job.location()).isEqualTo(purged.location());
    assertThat(new PurgeJobs(database).find(plain.id())).isEmpty();
    assertThat(count("SELECT count(*) FROM dropped_object")).isZero();
    assertThat(dropped.expire(1000).removed()).isZero();
  }

  @Test
  void aNamespaceOfDroppedObjectsOnlyIsEmptyButTheirWarehouseIsNot() {
    CatalogObject orders = create(ORDERS);
    drop(ORDERS, false);

    assertThat(new Namespaces(database).drop(warehouse, NS, Change.NONE)).isTrue();
    assertThatThrownBy(() -> warehouses.delete("r", "wh", Change.NONE))
        .isInstanceOf(NamespaceNotEmptyException.class)
        .hasMessageContaining("dropped tables or views");
    assertThatThrownBy(() -> dropped.undrop(warehouse, orders.id(), null, Change.NONE))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(dropped.list(warehouse, null, 10).items()).hasSize(1);
  }

  @Test
  void aKeptObjectsLocationStaysTaken() {
    CatalogObject orders = create(ORDERS);
    drop(ORDERS, false);
    CatalogObject squatter =
        new CatalogObject(
            UUID.randomUUID(),
            TableIdentifier.of(NS, "squatter"),
            Kind.TABLE,
            orders.location() + "/inside",
            true,
            orders.location() + "/inside/metadata/v1.json",
            "{}");

    assertThatThrownBy(
            () ->
                objects.create(
                    warehouse, squatter, TestEvents.of(warehouse, squatter), Change.NONE))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("kept for undrop");
  }

  @Test
  void theListingPagesMostRecentlyDroppedFirst() {
    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      TableIdentifier name = TableIdentifier.of(NS, "t" + i);
      ids.addFirst(create(name).id());
      drop(name, false);
    }

    List<UUID> listed = new ArrayList<>();
    String token = null;
    do {
      Page<DroppedObject> page = dropped.list(warehouse, token, 2);
      page.items().forEach(object -> listed.add(object.id()));
      token = page.nextPageToken();
    } while (token != null);

    assertThat(listed).containsExactlyElementsOf(ids);
  }

  private Optional<CatalogObjects.Dropped> drop(TableIdentifier name, boolean purge) {
    return objects.drop(
        warehouse, name, Kind.TABLE, purge, new Change(null, "r", "alice", IdempotencyMark.NONE));
  }

  private CatalogObject create(TableIdentifier identifier) {
    String location = "s3://bucket/wh/" + identifier.name() + "-" + UUID.randomUUID();
    CatalogObject object =
        new CatalogObject(
            UUID.randomUUID(),
            identifier,
            Kind.TABLE,
            location,
            true,
            location + "/metadata/v1.json",
            "{\"v\":1}");
    objects.create(warehouse, object, TestEvents.of(warehouse, object), Change.NONE);
    return object;
  }

  /** Waits, without sleeping blindly, until every kept object's purge is due by the database. */
  private void awaitDue() {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (count("SELECT count(*) FROM dropped_object WHERE purge_due > now()") > 0) {
      assertThat(System.nanoTime()).as("purges due within 5 s").isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  private long count(String sql) {
    return database.read(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql);
              ResultSet rs = statement.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }
}
