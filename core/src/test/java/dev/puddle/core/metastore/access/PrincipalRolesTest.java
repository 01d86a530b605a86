package dev.puddle.core.metastore.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.access.BuiltInRoles;
import dev.puddle.core.access.Role;
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
 * Principal roles: unique per realm, assigned once however often granted, and deleted with their
 * assignments on both sides; service_admin stays.
 */
@ExtendWith(FreshDatabase.class)
class PrincipalRolesTest {
  private Database database;
  private PrincipalRoles roles;

  @BeforeEach
  void setUp(Database database) {
    this.database = database;
    roles = new PrincipalRoles(database);
    database.transaction(
        connection -> {
          Warehouses.insertRealm(connection, "r");
          return null;
        });
    new Principals(database).create("r", "etl", Map.of());
  }

  @Test
  void namesAreUniquePerRealmAndListedInOrder() {
    roles.create("r", "writer", Map.of("k", "v"));
    roles.create("r", "reader", Map.of());

    assertThatThrownBy(() -> roles.create("r", "reader", Map.of()))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> roles.create("r", "", Map.of()))
        .isInstanceOf(BadRequestException.class);
    assertThat(roles.list("r"))
        .containsExactly(new Role("reader", Map.of()), new Role("writer", Map.of("k", "v")));
  }

  @Test
  void anAssignmentIsMadeOnceAndRevokedOnce() {
    roles.create("r", "reader", Map.of());

    roles.assign("r", "etl", "reader");
    roles.assign("r", "etl", "reader");
    assertThat(assignments("reader")).isEqualTo(1);
    roles.revoke("r", "etl", "reader");

    assertThat(assignments("reader")).isZero();
    assertThatThrownBy(() -> roles.revoke("r", "etl", "reader"))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> roles.assign("r", "nobody", "reader"))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> roles.assign("r", "etl", "none"))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void aDeleteTakesTheAssignmentsToPrincipalsAndOfCatalogRoles() {
    Warehouse warehouse = new Warehouses(database).ensure("r", "wh", "s3://b/wh", Map.of());
    roles.create("r", "reader", Map.of());
    roles.assign("r", "etl", "reader");
    CatalogRoles catalogRoles = new CatalogRoles(database);
    catalogRoles.create(warehouse, "readers", Map.of());
    catalogRoles.assign(warehouse, "reader", "readers");

    roles.delete("r", "reader");

    assertThat(assignments("reader")).isZero();
    assertThat(
            Rows.count(
                database,
                "SELECT count(*) FROM catalog_role_grant g JOIN catalog_role c"
                    + " ON c.id = g.catalog_role_id WHERE c.name = 'readers'"))
        .isZero();
    assertThat(catalogRoles.list(warehouse)).extracting(Role::name).contains("readers");
    assertThatThrownBy(() -> roles.delete("r", "reader")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> roles.delete("r", BuiltInRoles.SERVICE_ADMIN))
        .isInstanceOf(BadRequestException.class);
  }

  private long assignments(String role) {
    return Rows.count(
        database,
        "SELECT count(*) FROM principal_role_grant g JOIN principal_role r"
            + " ON r.id = g.principal_role_id WHERE r.name = ?",
        role);
  }
}
