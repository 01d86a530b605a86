package dev.puddle.core.metastore.access;

import dev.puddle.core.access.BuiltInRoles;
import dev.puddle.core.access.Role;
import dev.puddle.core.events.CatalogEvents;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Json;
import dev.puddle.core.metastore.Warehouse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/** The catalog roles of each warehouse and which principal roles hold them. */
public final class CatalogRoles {
  private final Database database;
  private final Change change;

  /** The store for changes made outside any request (bootstrap, tests). */
  public CatalogRoles(Database database) {
    this(database, Change.NONE);
  }

  private CatalogRoles(Database database, Change change) {
    this.database = database;
    this.change = change;
  }

  /** This store, its changes made by {@code change}'s request, which their events name. */
  public CatalogRoles as(Change change) {
    return new CatalogRoles(database, change);
  }

  /** Creates a catalog role of the warehouse; 409 if it has one of that name. */
  public void create(Warehouse warehouse, String name, Map<String, String> properties) {
    EntityNames.check("catalog role", name);
    database.transaction(
        change,
        (connection, events) -> {
          insert(connection, warehouse.realm(), warehouse.id(), name, properties);
          events.add(
              CatalogEvents.management(
                  warehouse.realm(),
                  warehouse,
                  "create-catalog-role",
                  Map.of("catalog-role", name)));
          return null;
        });
  }

  /** Inserts a catalog role and returns its id. */
  private static long insert(
      Connection connection,
      String realm,
      long warehouseId,
      String name,
      Map<String, String> properties)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO catalog_role (realm_id, warehouse_id, name, properties)"
                + " VALUES (?, ?, ?, ?::jsonb) RETURNING id")) {
      statement.setString(1, realm);
      statement.setLong(2, warehouseId);
      statement.setString(3, name);
      statement.setString(4, Json.fromMap(properties));
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      if (EntityNames.duplicate(e)) {
        throw new AlreadyExistsException("Catalog role already exists: %s", name);
      }
      throw e;
    }
  }

  public List<Role> list(Warehouse warehouse) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT name, properties::text FROM catalog_role WHERE warehouse_id = ?"
                      + " ORDER BY name")) {
            statement.setLong(1, warehouse.id());
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
   * Deletes a catalog role with its grants and assignments. A warehouse's {@code catalog_admin}
   * cannot be deleted.
   */
  public void delete(Warehouse warehouse, String name) {
    if (name.equals(BuiltInRoles.CATALOG_ADMIN)) {
      throw new BadRequestException("Cannot delete the %s catalog role", name);
    }
    database.transaction(
        change,
        (connection, events) -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "DELETE FROM catalog_role WHERE warehouse_id = ? AND name = ?")) {
            statement.setLong(1, warehouse.id());
            statement.setString(2, name);
            if (statement.executeUpdate() == 0) {
              throw new NotFoundException("Catalog role does not exist: %s", name);
            }
          }
          events.add(
              CatalogEvents.management(
                  warehouse.realm(),
                  warehouse,
                  "delete-catalog-role",
                  Map.of("catalog-role", name)));
          return null;
        });
  }

  /** Grants a catalog role to a principal role; granting it again changes nothing. */
  public void assign(Warehouse warehouse, String principalRole, String catalogRole) {
    database.transaction(
        change,
        (connection, events) -> {
          long principalRoleId =
              EntityNames.principalRoleId(connection, warehouse.realm(), principalRole);
          long catalogRoleId = EntityNames.catalogRoleId(connection, warehouse.id(), catalogRole);
          assign(connection, warehouse.realm(), principalRoleId, catalogRoleId);
          events.add(
              CatalogEvents.management(
                  warehouse.realm(),
                  warehouse,
                  "assign-catalog-role",
                  Map.of("principal-role", principalRole, "catalog-role", catalogRole)));
          return null;
        });
  }

  private static void assign(
      Connection connection, String realm, long principalRoleId, long catalogRoleId)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO catalog_role_grant (realm_id, principal_role_id, catalog_role_id)"
                + " VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
      statement.setString(1, realm);
      statement.setLong(2, principalRoleId);
      statement.setLong(3, catalogRoleId);
      statement.executeUpdate();
    } catch (SQLException e) {
      throw EntityNames.orGone(e, "Principal role or catalog role");
    }
  }

  /** Revokes a catalog role from a principal role; 404 if it does not hold it. */
  public void revoke(Warehouse warehouse, String principalRole, String catalogRole) {
    database.transaction(
        change,
        (connection, events) -> {
          long principalRoleId =
              EntityNames.principalRoleId(connection, warehouse.realm(), principalRole);
          long catalogRoleId = EntityNames.catalogRoleId(connection, warehouse.id(), catalogRole);
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "DELETE FROM catalog_role_grant"
                      + " WHERE principal_role_id = ? AND catalog_role_id = ?")) {
            statement.setLong(1, principalRoleId);
            statement.setLong(2, catalogRoleId);
            if (statement.executeUpdate() == 0) {
              throw new NotFoundException(
                  "Principal role %s does not hold catalog role %s", principalRole, catalogRole);
            }
          }
          events.add(
              CatalogEvents.management(
                  warehouse.realm(),
                  warehouse,
                  "revoke-catalog-role",
                  Map.of("principal-role", principalRole, "catalog-role", catalogRole)));
          return null;
        });
  }
}
