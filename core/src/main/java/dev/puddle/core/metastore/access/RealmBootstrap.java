package dev.puddle.core.metastore.access;

import dev.puddle.core.access.BuiltInRoles;
import dev.puddle.core.access.Principal;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Warehouses;
import java.sql.PreparedStatement;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Bootstraps a realm as Apache Polaris does: the realm, its {@code service_admin} principal role
 * and its {@code root} principal holding it, with a client credential; {@code service_admin}
 * receives the {@code catalog_admin} role of every warehouse the realm already has. Running it
 * again changes nothing, except that a credential given that is not root's current one replaces it
 * (a rotation).
 */
public final class RealmBootstrap {
  /** What bootstrapping did. */
  public enum Outcome {
    /** The root principal was created. */
    CREATED,
    /** The root principal existed; its credential was replaced by the one given. */
    ROTATED,
    /** The root principal existed and nothing changed. */
    UNCHANGED
  }

  /**
   * The result: root's client id, and its secret when it was generated just now (the one moment it
   * can be shown; null otherwise).
   */
  public record Result(Outcome outcome, String clientId, String generatedSecret) {
    /** Never prints the secret. */
    @Override
    public String toString() {
      return "Result[" + outcome + ", clientId=" + clientId + "]";
    }
  }

  private final Database database;
  private final Principals principals;

  public RealmBootstrap(Database database) {
    this.database = database;
    this.principals = new Principals(database);
  }

  /**
   * Bootstraps {@code realm}; {@code credential}, if not null, is the root credential to have (else
   * one is generated when root is created).
   */
  public Result bootstrap(String realm, PrincipalCredential credential) {
    if (credential != null) {
      Principals.check(credential);
    }
    database.transaction(
        connection -> {
          Warehouses.insertRealm(connection, realm);
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO principal_role (realm_id, name) VALUES (?, ?)"
                      + " ON CONFLICT DO NOTHING")) {
            statement.setString(1, realm);
            statement.setString(2, BuiltInRoles.SERVICE_ADMIN);
            statement.executeUpdate();
          }
          return null;
        });
    Optional<Principal> root = findRoot(realm);
    if (root.isEmpty()) {
      PrincipalCredential created = credential != null ? credential : Principals.newCredential();
      try {
        principals.create(realm, Principals.ROOT, Map.of(), created);
        grantAdminRoles(realm, true);
        return new Result(
            Outcome.CREATED,
            created.clientId(),
            credential == null ? created.clientSecret() : null);
      } catch (AlreadyExistsException e) {
        // another process bootstrapped the realm at the same moment, or the client id is taken
        root = findRoot(realm);
        if (root.isEmpty()) {
          throw e;
        }
      }
    }
    // root always holds service_admin, even if a first bootstrap stopped half-way
    grantAdminRoles(realm, false);
    if (credential == null || isCurrent(realm, root.get(), credential)) {
      return new Result(Outcome.UNCHANGED, root.get().clientId(), null);
    }
    principals.setCredential(realm, Principals.ROOT, credential);
    return new Result(Outcome.ROTATED, credential.clientId(), null);
  }

  private boolean isCurrent(String realm, Principal root, PrincipalCredential credential) {
    return root.clientId().equals(credential.clientId())
        && principals
            .verify(credential.clientId(), credential.clientSecret())
            .filter(ref -> ref.realm().equals(realm))
            .isPresent();
  }

  private Optional<Principal> findRoot(String realm) {
    try {
      return Optional.of(principals.get(realm, Principals.ROOT));
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  /**
   * Root holds service_admin; when the realm is new, service_admin also receives the catalog_admin
   * of every warehouse created before it (later ones get it at their creation). Not on later runs:
   * an administrator may have revoked one on purpose.
   */
  private void grantAdminRoles(String realm, boolean catalogAdmins) {
    database.transaction(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO principal_role_grant (realm_id, principal_id, principal_role_id)"
                      + " SELECT p.realm_id, p.id, pr.id FROM principal p JOIN principal_role pr"
                      + " ON pr.realm_id = p.realm_id AND pr.name = ?"
                      + " WHERE p.realm_id = ? AND p.name = ? ON CONFLICT DO NOTHING")) {
            statement.setString(1, BuiltInRoles.SERVICE_ADMIN);
            statement.setString(2, realm);
            statement.setString(3, Principals.ROOT);
            statement.executeUpdate();
          }
          if (!catalogAdmins) {
            return null;
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO catalog_role_grant (realm_id, principal_role_id, catalog_role_id)"
                      + " SELECT cr.realm_id, pr.id, cr.id FROM catalog_role cr"
                      + " JOIN principal_role pr ON pr.realm_id = cr.realm_id AND pr.name = ?"
                      + " WHERE cr.realm_id = ? AND cr.name = ? ON CONFLICT DO NOTHING")) {
            statement.setString(1, BuiltInRoles.SERVICE_ADMIN);
            statement.setString(2, realm);
            statement.setString(3, BuiltInRoles.CATALOG_ADMIN);
            statement.executeUpdate();
          }
          return null;
        });
  }
}
