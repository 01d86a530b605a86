package dev.puddle.core.metastore.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.access.Grant;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Securable;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.FreshDatabase;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.Rows;
import dev.puddle.core.metastore.TestEvents;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Privilege grants: made once, listed catalog first then by path, only where the privilege applies;
 * a grant on a table follows its renames and goes with its drop; every change bumps the realm's
 * access version.
 */
@ExtendWith(FreshDatabase.class)
class PrivilegeGrantsTest {
  private static final Namespace NS = Namespace.of("db");
  private static final TableIdentifier ORDERS = TableIdentifier.of(NS, "orders");

  private Database database;
  private PrivilegeGrants grants;
  private CatalogObjects objects;
  private Warehouse warehouse;

  @BeforeEach
  void setUp(Database database) {
    this.database = database;
    grants = new PrivilegeGrants(database);
    objects = new CatalogObjects(database);
    warehouse = new Warehouses(database).ensure("r", "wh", "s3://b/wh", Map.of());
    new CatalogRoles(database).create(warehouse, "readers", Map.of());
    new Namespaces(database).create(warehouse, NS, Map.of(), Change.NONE);
    CatalogObject created =
        new CatalogObject(
            UUID.randomUUID(),
            ORDERS,
            CatalogObject.Kind.TABLE,
            "s3://b/wh/db/orders",
            true,
            "s3://b/wh/db/orders/m.json",
            "{}");
    objects.create(warehouse, created, TestEvents.of(warehouse, created), Change.NONE);
  }

  @Test
  void grantsAreMadeOnceAndListedCatalogFirstThenByPath() {
    Grant onTable = new Grant(Privilege.TABLE_READ_DATA, Securable.table(ORDERS));
    Grant onNamespace = new Grant(Privilege.TABLE_LIST, Securable.namespace(NS));
    Grant onCatalog = new Grant(Privilege.NAMESPACE_LIST, Securable.catalog());

    grants.add(warehouse, "readers", onTable);
    grants.add(warehouse, "readers", onTable);
    grants.add(warehouse, "readers", onNamespace);
    grants.add(warehouse, "readers", onCatalog);

    assertThat(grants.list(warehouse, "readers")).containsExactly(onCatalog, onNamespace, onTable);
    grants.revoke(warehouse, "readers", onNamespace);
    assertThat(grants.list(warehouse, "readers")).containsExactly(onCatalog, onTable);
    assertThatThrownBy(() -> grants.revoke(warehouse, "readers", onNamespace))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void aPrivilegeIsGrantedOnlyWhereItApplies() {
    assertThatThrownBy(
            () ->
                grants.add(
                    warehouse,
                    "readers",
                    new Grant(Privilege.CATALOG_MANAGE_ACCESS, Securable.namespace(NS))))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(
            () ->
                grants.add(
                    warehouse, "readers", new Grant(Privilege.VIEW_DROP, Securable.table(ORDERS))))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(
            () ->
                grants.add(
                    warehouse,
                    "readers",
                    new Grant(Privilege.TABLE_LIST, Securable.namespace(Namespace.of("none")))))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThatThrownBy(
            () ->
                grants.add(
                    warehouse,
                    "readers",
                    new Grant(
                        Privilege.TABLE_READ_DATA,
                        Securable.table(TableIdentifier.of(NS, "missing")))))
        .isInstanceOf(NoSuchTableException.class);
    assertThat(grants.list(warehouse, "readers")).isEmpty();
  }

  @Test
  void aGrantOnATableFollowsItsRenameAndGoesWithItsDrop() {
    grants.add(warehouse, "readers", new Grant(Privilege.TABLE_READ_DATA, Securable.table(ORDERS)));
    TableIdentifier renamed = TableIdentifier.of(NS, "orders_v2");

    objects.rename(warehouse, ORDERS, renamed, CatalogObject.Kind.TABLE, Change.NONE);
    assertThat(grants.list(warehouse, "readers"))
        .containsExactly(new Grant(Privilege.TABLE_READ_DATA, Securable.table(renamed)));
    objects.drop(warehouse, renamed, CatalogObject.Kind.TABLE, false, Change.NONE);

    assertThat(grants.list(warehouse, "readers")).isEmpty();
  }

  @Test
  void everyChangeToTheGrantsBumpsTheAccessVersion() {
    Grant grant = new Grant(Privilege.TABLE_READ_DATA, Securable.table(ORDERS));
    long before = accessVersion();

    grants.add(warehouse, "readers", grant);
    long added = accessVersion();
    objects.rename(
        warehouse, ORDERS, TableIdentifier.of(NS, "o2"), CatalogObject.Kind.TABLE, Change.NONE);
    long renamed = accessVersion();

    assertThat(added).isGreaterThan(before);
    assertThat(renamed).isGreaterThan(added);
  }

  private long accessVersion() {
    return Rows.count(
        database, "SELECT COALESCE((SELECT version FROM access_version WHERE realm_id = 'r'), 0)");
  }
}
