package dev.puddle.core.metastore.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.access.Principal;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.auth.ClientCredentials.PrincipalRef;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.FreshDatabase;
import dev.puddle.core.metastore.Rows;
import dev.puddle.core.metastore.Warehouses;
import java.util.Map;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Principals: names unique per realm, client ids unique across realms, secrets verified only
 * against their hash, a rotation ends the old secret, and a delete takes the role assignments.
 */
@ExtendWith(FreshDatabase.class)
class PrincipalsTest {
  private Database database;
  private Principals principals;

  @BeforeEach
  void setUp(Database database) {
    this.database = database;
    principals = new Principals(database);
    // realms without their bootstrap: every principal costs a slow hash
    database.transaction(
        connection -> {
          Warehouses.insertRealm(connection, "r1");
          Warehouses.insertRealm(connection, "r2");
          return null;
        });
  }

  @Test
  void aPrincipalIsFoundByItsCredentialAndNothingElse() {
    PrincipalCredential credential = principals.create("r1", "etl", Map.of("team", "data"));

    assertThat(principals.verify(credential.clientId(), credential.clientSecret()))
        .contains(new PrincipalRef("r1", "etl"));
    assertThat(principals.verify(credential.clientId(), credential.clientSecret() + "x")).isEmpty();
    assertThat(principals.verify("unknown", credential.clientSecret())).isEmpty();
    assertThat(principals.verify(null, null)).isEmpty();
    assertThat(principals.get("r1", "etl"))
        .isEqualTo(new Principal("etl", credential.clientId(), Map.of("team", "data")));
    assertThat(
            Rows.count(
                database,
                "SELECT count(*) FROM principal WHERE secret_hash = convert_to(?, 'UTF8')",
                credential.clientSecret()))
        .as("the secret is not stored as it is")
        .isZero();
  }

  @Test
  void namesAreUniquePerRealmAndClientIdsAcrossRealms() {
    PrincipalCredential given = new PrincipalCredential("shared-id", "a-long-secret");
    principals.create("r1", "etl", Map.of(), given);

    assertThatThrownBy(() -> principals.create("r1", "etl", Map.of()))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("Principal already exists");
    principals.create("r2", "etl", Map.of());
    assertThatThrownBy(() -> principals.create("r2", "other", Map.of(), given))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("Client id is taken");
    assertThatThrownBy(() -> principals.setCredential("r2", "etl", given))
        .isInstanceOf(AlreadyExistsException.class);
  }

  @Test
  void badNamesAndCredentialsAreRefused() {
    assertThatThrownBy(() -> principals.create("r1", "has space", Map.of()))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(
            () -> principals.create("r1", "etl", Map.of(), new PrincipalCredential("id", "short")))
        .isInstanceOf(BadRequestException.class);
    assertThat(principals.list("r1")).isEmpty();
  }

  @Test
  void aRotationEndsTheOldSecret() {
    PrincipalCredential old = principals.create("r1", "etl", Map.of());

    PrincipalCredential rotated = principals.rotate("r1", "etl");

    assertThat(rotated.clientId()).isEqualTo(old.clientId());
    assertThat(principals.verify(old.clientId(), old.clientSecret())).isEmpty();
    assertThat(principals.verify(rotated.clientId(), rotated.clientSecret())).isPresent();
  }

  @Test
  void listIsByNameAndADeleteTakesTheAssignments() {
    principals.create("r1", "zed", Map.of());
    principals.create("r1", "etl", Map.of());
    PrincipalRoles roles = new PrincipalRoles(database);
    roles.create("r1", "reader", Map.of());
    roles.assign("r1", "etl", "reader");

    assertThat(principals.list("r1")).extracting(Principal::name).containsExactly("etl", "zed");
    principals.delete("r1", "etl");

    assertThatThrownBy(() -> principals.get("r1", "etl")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> principals.delete("r1", "etl")).isInstanceOf(NotFoundException.class);
    assertThat(
            Rows.count(
                database,
                "SELECT count(*) FROM principal_role_grant g JOIN principal_role r"
                    + " ON r.id = g.principal_role_id WHERE r.name = 'reader'"))
        .isZero();
    assertThatThrownBy(() -> principals.delete("r1", Principals.ROOT))
        .isInstanceOf(BadRequestException.class);
  }
}
