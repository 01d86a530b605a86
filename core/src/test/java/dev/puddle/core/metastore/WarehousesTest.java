package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.access.BuiltInRoles;
import dev.puddle.core.access.Role;
import dev.puddle.core.metastore.access.CatalogRoles;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Warehouses: unique per realm, created with their catalog_admin, deleted only when empty. */
@ExtendWith(FreshDatabase.class)
class WarehousesTest {
  private Database database;
  private Warehouses warehouses;

  @BeforeEach
  void setUp(Database database) {
    this.database = database;
    this.warehouses = new Warehouses(database);
    warehouses.ensure("r1", "first", "s3://bucket/first/", Map.of("k", "v"));
  }

  @Test
  void ensureIsIdempotentAndCreateRefusesATakenName() {
    Warehouse again = warehouses.ensure("r1", "first", "s3://elsewhere", Map.of());

    assertThat(again.location()).isEqualTo("s3://bucket/first");
    assertThat(again.properties()).containsEntry("k", "v");
    assertThatThrownBy(
            () -> warehouses.create("r1", "first", "s3://bucket/x", Map.of(), Change.NONE))
        .isInstanceOf(AlreadyExistsException.class);
    // the same name in another realm is another warehouse
    warehouses.ensure("r2", "first", "s3://bucket/r2", Map.of());
    assertThat(warehouses.get("r2", "first").id()).isNotEqualTo(again.id());
  }

  @Test
  void namesAndLocationsAreChecked() {
    assertThatThrownBy(
            () -> warehouses.create("r1", "bad/name", "s3://bucket/x", Map.of(), Change.NONE))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(
            () -> warehouses.create("r1", "second", "not a location", Map.of(), Change.NONE))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> warehouses.get("r1", "second")).isInstanceOf(NotFoundException.class);
  }

  @Test
  void listIsByName() {
    warehouses.create("r1", "c", "s3://bucket/c", Map.of(), Change.NONE);
    warehouses.create("r1", "b", "s3://bucket/b", Map.of(), Change.NONE);

    assertThat(warehouses.list("r1"))
        .extracting(Warehouse::name)
        .containsExactly("b", "c", "first");
  }

  @Test
  void aNewWarehouseHasItsCatalogAdmin() {
    Warehouse warehouse =
        warehouses.create("r1", "second", "s3://bucket/second", Map.of(), Change.NONE);

    assertThat(new CatalogRoles(database).list(warehouse))
        .extracting(Role::name)
        .containsExactly(BuiltInRoles.CATALOG_ADMIN);
  }

  @Test
  void propertiesAreReadByIdAndNoneOnceGone() {
    Warehouse warehouse = warehouses.get("r1", "first");

    assertThat(warehouses.properties(warehouse.id())).isEqualTo(Map.of("k", "v"));
    warehouses.delete("r1", "first", Change.NONE);
    assertThat(warehouses.properties(warehouse.id())).isEmpty();
  }

  @Test
  void deleteRefusesAWarehouseWithNamespacesAndTakesItsRolesAlong() {
    Warehouse warehouse = warehouses.get("r1", "first");
    Namespaces namespaces = new Namespaces(database);
    namespaces.create(warehouse, Namespace.of("ns"), Map.of(), Change.NONE);
    new CatalogRoles(database).create(warehouse, "reader", Map.of());

    assertThatThrownBy(() -> warehouses.delete("r1", "first", Change.NONE))
        .isInstanceOf(NamespaceNotEmptyException.class)
        .hasMessageContaining("namespaces");
    namespaces.drop(warehouse, Namespace.of("ns"), Change.NONE);
    warehouses.delete("r1", "first", Change.NONE);

    assertThatThrownBy(() -> warehouses.get("r1", "first")).isInstanceOf(NotFoundException.class);
    assertThat(count("catalog_role")).isZero();
    assertThat(count("privilege_grant")).isZero();
  }

  @Test
  void deleteWaitsForUnfinishedPurgesAndTakesFinishedOnesAlong() {
    Warehouse warehouse = warehouses.get("r1", "first");
    Namespaces namespaces = new Namespaces(database);
    CatalogObjects objects = new CatalogObjects(database);
    namespaces.create(warehouse, Namespace.of("ns"), Map.of(), Change.NONE);
    TableIdentifier table = TableIdentifier.of("ns", "t");
    UUID id = UUID.randomUUID();
    CatalogObject created =
        new CatalogObject(
            id, table, CatalogObject.Kind.TABLE, "s3://bucket/first/ns/t", true, "m.json", "{}");
    objects.create(warehouse, created, TestEvents.of(warehouse, created), Change.NONE);
    objects.drop(warehouse, table, CatalogObject.Kind.TABLE, true, Change.NONE);
    namespaces.drop(warehouse, Namespace.of("ns"), Change.NONE);

    assertThatThrownBy(() -> warehouses.delete("r1", "first", Change.NONE))
        .isInstanceOf(NamespaceNotEmptyException.class)
        .hasMessageContaining("purge jobs");
    PurgeJobs jobs = new PurgeJobs(database);
    BackgroundJobs.Claim<PurgeJob> claim =
        (BackgroundJobs.Claim<PurgeJob>) jobs.claim(id, Duration.ofMinutes(1));
    jobs.finish(claim);
    warehouses.delete("r1", "first", Change.NONE);

    assertThat(jobs.find(id)).isEmpty();
  }

  private long count(String table) {
    return Rows.count(database, "SELECT count(*) FROM " + table);
  }
}
