package dev.puddle.core.metastore.access;

import dev.puddle.core.access.Grant;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Securable;
import dev.puddle.core.events.CatalogEvents;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.Warehouse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * The privileges catalog roles hold on a warehouse's catalog, namespaces, tables and views. A grant
 * names its namespace or object by row id, so it follows renames and is dropped with it.
 */
public final class PrivilegeGrants {
  private final Database database;
  private final Change change;

  /** The store for changes made outside any request (bootstrap, tests). */
  public PrivilegeGrants(Database database) {
    this(database, Change.NONE);
  }

  private PrivilegeGrants(Database database, Change change) {
    this.database = database;
    this.change = change;
  }

  /** This store, its changes made by {@code change}'s request, which their events name. */
  public PrivilegeGrants as(Change change) {
    return new PrivilegeGrants(database, change);
  }

  /** The row a securable is: its namespace's id or its object's id (null for the catalog). */
  private record Target(Long namespaceId, UUID objectId) {}

  /** Grants a privilege to a catalog role; granting it again changes nothing. */
  public void add(Warehouse warehouse, String catalogRole, Grant grant) {
    checkGrantable(grant);
    database.transaction(
        change,
        (connection, events) -> {
          long roleId = EntityNames.catalogRoleId(connection, warehouse.id(), catalogRole);
          Target target = resolve(connection, warehouse, grant.securable());
          insert(connection, warehouse.realm(), roleId, grant, target);
          events.add(
              CatalogEvents.management(
                  warehouse.realm(), warehouse, "add-grant", grantFields(catalogRole, grant)));
          return null;
        });
  }

  private static void insert(
      Connection connection, String realm, long catalogRoleId, Grant grant, Target target)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO privilege_grant"
                + " (realm_id, catalog_role_id, securable, namespace_id, object_id, privilege)"
                + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
      statement.setString(1, realm);
      statement.setLong(2, catalogRoleId);
      statement.setString(3, grant.securable().kind().sql());
      bindTarget(statement, 4, target);
      statement.setString(6, grant.privilege().name());
      statement.executeUpdate();
    } catch (SQLException e) {
      throw EntityNames.orGone(e, "The catalog role or " + grant.securable());
    }
  }

  /** Revokes a privilege from a catalog role; 404 if the role does not hold it there. */
  public void revoke(Warehouse warehouse, String catalogRole, Grant grant) {
    database.transaction(
        change,
        (connection, events) -> {
          long roleId = EntityNames.catalogRoleId(connection, warehouse.id(), catalogRole);
          Target target = resolve(connection, warehouse, grant.securable());
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "DELETE FROM privilege_grant WHERE catalog_role_id = ? AND securable = ?"
                      + " AND namespace_id IS NOT DISTINCT FROM ?"
                      + " AND object_id IS NOT DISTINCT FROM ? AND privilege = ?")) {
            statement.setLong(1, roleId);
            statement.setString(2, grant.securable().kind().sql());
            bindTarget(statement, 3, target);
            statement.setString(5, grant.privilege().name());
            if (statement.executeUpdate() == 0) {
              throw new NotFoundException(
                  "Catalog role %s does not hold %s on %s",
                  catalogRole, grant.privilege(), grant.securable());
            }
          }
          events.add(
              CatalogEvents.management(
                  warehouse.realm(), warehouse, "revoke-grant", grantFields(catalogRole, grant)));
          return null;
        });
  }

  /** The privileges a catalog role holds, catalog first, then by securable path. */
  public List<Grant> list(Warehouse warehouse, String catalogRole) {
    return database.read(
        connection -> {
          long roleId = EntityNames.catalogRoleId(connection, warehouse.id(), catalogRole);
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT g.privilege, g.securable, COALESCE(n.levels, objn.levels), o.name"
                      + " FROM privilege_grant g"
                      + " LEFT JOIN namespace n ON n.id = g.namespace_id"
                      + " LEFT JOIN catalog_object o ON o.id = g.object_id"
                      + " LEFT JOIN namespace objn ON objn.id = o.namespace_id"
                      + " WHERE g.catalog_role_id = ?"
                      + " ORDER BY 3 NULLS FIRST, 4 NULLS FIRST, 2, 1")) {
            statement.setLong(1, roleId);
            List<Grant> result = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                Securable.Kind kind =
                    Securable.Kind.valueOf(rs.getString(2).toUpperCase(Locale.ROOT));
                Securable securable =
                    kind == Securable.Kind.CATALOG
                        ? Securable.catalog()
                        : new Securable(
                            kind,
                            Namespace.of((String[]) rs.getArray(3).getArray()),
                            rs.getString(4));
                result.add(new Grant(Privilege.valueOf(rs.getString(1)), securable));
              }
            }
            return result;
          }
        });
  }

  /** Fails with 400 unless the privilege can be granted on a securable of that kind. */
  private static void checkGrantable(Grant grant) {
    Securable.Kind kind = grant.securable().kind();
    boolean grantable =
        switch (grant.privilege().level()) {
          case SERVICE -> false;
          case CATALOG -> kind == Securable.Kind.CATALOG;
          case NAMESPACE -> kind == Securable.Kind.CATALOG || kind == Securable.Kind.NAMESPACE;
          case TABLE -> kind != Securable.Kind.VIEW;
          case VIEW -> kind != Securable.Kind.TABLE;
        };
    if (!grantable) {
      throw new BadRequestException(
          "Privilege %s cannot be granted on a %s", grant.privilege(), kind.sql());
    }
  }

  private static Target resolve(Connection connection, Warehouse warehouse, Securable securable)
      throws SQLException {
    return switch (securable.kind()) {
      case CATALOG -> new Target(null, null);
      case NAMESPACE -> {
        long id =
            Namespaces.id(connection, warehouse.id(), securable.namespace(), false)
                .orElseThrow(
                    () ->
                        new NoSuchNamespaceException(
                            "Namespace does not exist: %s", securable.namespace()));
        yield new Target(id, null);
      }
      case TABLE, VIEW -> {
        CatalogObject.Kind kind =
            securable.kind() == Securable.Kind.TABLE
                ? CatalogObject.Kind.TABLE
                : CatalogObject.Kind.VIEW;
        TableIdentifier identifier = TableIdentifier.of(securable.namespace(), securable.name());
        UUID id =
            CatalogObjects.id(connection, warehouse.id(), identifier, kind)
                .orElseThrow(() -> CatalogObjects.doesNotExist(kind, identifier));
        yield new Target(null, id);
      }
    };
  }

  private static void bindTarget(PreparedStatement statement, int first, Target target)
      throws SQLException {
    statement.setObject(first, target.namespaceId());
    statement.setObject(first + 1, target.objectId());
  }

  /** What a grant's event names: the role, the privilege and where it applies. */
  private static Map<String, String> grantFields(String catalogRole, Grant grant) {
    return Map.of(
        "catalog-role",
        catalogRole,
        "privilege",
        grant.privilege().name(),
        "securable",
        grant.securable().toString());
  }
}
