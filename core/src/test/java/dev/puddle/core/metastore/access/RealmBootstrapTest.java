package dev.puddle.core.metastore.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.access.BuiltInRoles;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.auth.ClientCredentials.PrincipalRef;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.FreshDatabase;
import dev.puddle.core.metastore.Rows;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.RealmBootstrap.Outcome;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Realm bootstrap: creates root holding service_admin once, changes nothing when run again, rotates
 * to a new credential given, and service_admin holds the catalog_admin of every warehouse, made
 * before the bootstrap or after.
 */
@ExtendWith(FreshDatabase.class)
class RealmBootstrapTest {

  @Test
  void aSecondRunChangesNothingAndANewCredentialRotates(Database database) {
    RealmBootstrap bootstrap = new RealmBootstrap(database);
    Principals principals = new Principals(database);

    RealmBootstrap.Result created = bootstrap.bootstrap("r", null);
    RealmBootstrap.Result again = bootstrap.bootstrap("r", null);
    PrincipalCredential given = new PrincipalCredential("root-id", "a-given-secret");
    RealmBootstrap.Result rotated = bootstrap.bootstrap("r", given);
    RealmBootstrap.Result same = bootstrap.bootstrap("r", given);

    assertThat(created.outcome()).isEqualTo(Outcome.CREATED);
    assertThat(created.generatedSecret()).isNotNull();
    assertThat(created.toString()).doesNotContain(created.generatedSecret());
    assertThat(again)
        .isEqualTo(new RealmBootstrap.Result(Outcome.UNCHANGED, created.clientId(), null));
    assertThat(rotated.outcome()).isEqualTo(Outcome.ROTATED);
    assertThat(same.outcome()).isEqualTo(Outcome.UNCHANGED);
    assertThat(principals.verify(created.clientId(), created.generatedSecret())).isEmpty();
    assertThat(principals.verify("root-id", "a-given-secret"))
        .contains(new PrincipalRef("r", Principals.ROOT));
    assertThat(
            heldRoles(
                database,
                "SELECT count(*) FROM principal p"
                    + " JOIN principal_role_grant g ON g.principal_id = p.id"
                    + " JOIN principal_role r ON r.id = g.principal_role_id"
                    + " WHERE p.name = 'root' AND r.name = ?",
                BuiltInRoles.SERVICE_ADMIN))
        .isEqualTo(1);
  }

  @Test
  void serviceAdminHoldsTheCatalogAdminOfWarehousesMadeBeforeAndAfter(Database database) {
    Warehouses warehouses = new Warehouses(database);
    warehouses.ensure("r", "before", "s3://b/before", Map.of());
    new RealmBootstrap(database).bootstrap("r", null);
    warehouses.create("r", "after", "s3://b/after", Map.of(), Change.NONE);

    assertThat(
            heldRoles(
                database,
                "SELECT count(*) FROM catalog_role_grant g"
                    + " JOIN principal_role p ON p.id = g.principal_role_id"
                    + " JOIN catalog_role c ON c.id = g.catalog_role_id"
                    + " WHERE p.name = ? AND c.name = 'catalog_admin'",
                BuiltInRoles.SERVICE_ADMIN))
        .isEqualTo(2);
  }

  private static long heldRoles(Database database, String sql, String role) {
    return Rows.count(database, sql, role);
  }
}
