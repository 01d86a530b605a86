package dev.puddle.core.metastore.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.access.BuiltInRoles;
import dev.puddle.core.access.Grant;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Role;
import dev.puddle.core.access.Securable;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.FreshDatabase;
import dev.puddle.core.metastore.Rows;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import java.util.Map;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Catalog roles: unique per warehouse, granted to principal roles once, and deleted with their
 * grants and assignments; catalog_admin stays.
 */
@ExtendWith(FreshDatabase.class)
class CatalogRolesTest {
  private Database database;
  private CatalogRoles roles;
  private Warehouse first;
  private Warehouse second;

  @BeforeEach
  void setUp(Database database) {
    this.database = database;
    roles = new CatalogRoles(database);
    Warehouses warehouses = new Warehouses(database);
    first = warehouses.ensure("r", "first", "s3://b/first", Map.of());
    second = warehouses.ensure("r", "second", "s3://b/second", Map.of());
    new PrincipalRoles(database).create("r", "engineers", Map.of());
  }

  @Test
  void namesAreUniquePerWarehouse() {
    roles.create(first, "readers", Map.of("k", "v"));
    roles.create(second, "readers", Map.of());

    assertThatThrownBy(() -> roles.create(first, "readers", Map.of()))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> roles.create(first, "bad name", Map.of()))
        .isInstanceOf(BadRequestException.class);
    assertThat(roles.list(first))
        .containsExactly(
            new Role(BuiltInRoles.CATALOG_ADMIN, Map.of()), new Role("readers", Map.of("k", "v")));
  }

  @Test
  void anAssignmentIsMadeOnceAndRevokedOnce() {
    roles.create(first, "readers", Map.of());

    roles.assign(first, "engineers", "readers");
    roles.assign(first, "engineers", "readers");
    assertThat(assignments()).isEqualTo(1);
    roles.revoke(first, "engineers", "readers");

    assertThat(assignments()).isZero();
    assertThatThrownBy(() -> roles.revoke(first, "engineers", "readers"))
        .isInstanceOf(NotFoundException.class);
    // a catalog role of one warehouse is not found through another
    assertThatThrownBy(() -> roles.assign(second, "engineers", "readers"))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void aDeleteTakesItsGrantsAndAssignments() {
    roles.create(first, "readers", Map.of());
    roles.assign(first, "engineers", "readers");
    new PrivilegeGrants(database)
        .add(first, "readers", new Grant(Privilege.TABLE_READ_DATA, Securable.catalog()));

    roles.delete(first, "readers");

    assertThat(assignments()).isZero();
    assertThat(
            Rows.count(
                database,
                "SELECT count(*) FROM privilege_grant WHERE privilege = 'TABLE_READ_DATA'"))
        .isZero();
    assertThatThrownBy(() -> roles.delete(first, "readers")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> roles.delete(first, BuiltInRoles.CATALOG_ADMIN))
        .isInstanceOf(BadRequestException.class);
  }

  private long assignments() {
    return Rows.count(
        database,
        "SELECT count(*) FROM catalog_role_grant g JOIN catalog_role c ON c.id = g.catalog_role_id"
            + " WHERE c.name = 'readers'");
  }
}
