package dev.puddle.core.metastore.access;

import dev.puddle.core.access.BuiltInRoles;
import dev.puddle.core.access.Role;
import dev.puddle.core.events.CatalogEvents;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Json;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/** The principal roles of each realm and which principals hold them. */
public final class PrincipalRoles {
  private final Database database;
  private final Change change;

  /** The store for changes made outside any request (bootstrap, tests). */
  public PrincipalRoles(Database database) {
    this(database, Change.NONE);
  }

  private PrincipalRoles(Database database, Change change) {
    this.database = database;
    this.change = change;
  }

  /** This store, its changes made by {@code change}'s request, which their events name. */
  public PrincipalRoles as(Change change) {
    return new PrincipalRoles(database, change);
  }

  /** Creates a principal role; 409 if the realm has one of that name. */
  public void create(String realm, String name, Map<String, String> properties) {
    EntityNames.check("principal role", name);
    database.transaction(
        change,
        (connection, events) -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO principal_role (realm_id, name, properties)"
                      + " VALUES (?, ?, ?::jsonb)")) {
            statement.setString(1, realm);
            statement.setString(2, name);
            statement.setString(3, Json.fromMap(properties));
            statement.executeUpdate();
          } catch (SQLException e) {
            if (EntityNames.duplicate(e)) {
              throw new AlreadyExistsException("Principal role already exists: %s", name);
            }
            throw e;
          }
          events.add(
              CatalogEvents.management(
                  realm, null, "create-principal-role", Map.of("principal-role", name)));
          return null;
        });
  }

  public List<Role> list(String realm) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT name, properties::text FROM principal_role WHERE realm_id = ?"
                      + " ORDER BY name")) {
            statement.setString(1, realm);
            List<Role> result = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                result.add(new Role(rs.getString(1), Json.toMap(rs.getString(2))));
              }
            }
            return result;
          }
        });
  }

  /**
   * Deletes a principal role with its assignments to principals and its catalog roles' assignments.
   * The {@code service_admin} role cannot be deleted.
   */
  public void delete(String realm, String name) {
    if (name.equals(BuiltInRoles.SERVICE_ADMIN)) {
      throw new BadRequestException("Cannot delete the %s principal role", name);
    }
    database.transaction(
        change,
        (connection, events) -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "DELETE FROM principal_role WHERE realm_id = ? AND name = ?")) {
            statement.setString(1, realm);
            statement.setString(2, name);
            if (statement.executeUpdate() == 0) {
              throw new NotFoundException("Principal role does not exist: %s", name);
            }
          }
          events.add(
              CatalogEvents.management(
                  realm, null, "delete-principal-role", Map.of("principal-role", name)));
          return null;
        });
  }

  /** Grants a principal role to a principal; granting it again changes nothing. */
  public void assign(String realm, String principal, String role) {
    database.transaction(
        change,
        (connection, events) -> {
          long principalId = EntityNames.principalId(connection, realm, principal);
          long roleId = EntityNames.principalRoleId(connection, realm, role);
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO principal_role_grant (realm_id, principal_id, principal_role_id)"
                      + " VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            statement.setString(1, realm);
            statement.setLong(2, principalId);
            statement.setLong(3, roleId);
            statement.executeUpdate();
          } catch (SQLException e) {
            throw EntityNames.orGone(e, "Principal or principal role");
          }
          events.add(
              CatalogEvents.management(
                  realm,
                  null,
                  "assign-principal-role",
                  Map.of("principal", principal, "principal-role", role)));
          return null;
        });
  }

  /** Revokes a principal role from a principal; 404 if the principal does not hold it. */
  public void revoke(String realm, String principal, String role) {
    database.transaction(
        change,
        (connection, events) -> {
          long principalId = EntityNames.principalId(connection, realm, principal);
          long roleId = EntityNames.principalRoleId(connection, realm, role);
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "DELETE FROM principal_role_grant"
                      + " WHERE principal_id = ? AND principal_role_id = ?")) {
            statement.setLong(1, principalId);
            statement.setLong(2, roleId);
            if (statement.executeUpdate() == 0) {
              throw new NotFoundException(
                  "Principal %s does not hold principal role %s", principal, role);
            }
          }
          events.add(
              CatalogEvents.management(
                  realm,
                  null,
                  "revoke-principal-role",
                  Map.of("principal", principal, "principal-role", role)));
          return null;
        });
  }
}
