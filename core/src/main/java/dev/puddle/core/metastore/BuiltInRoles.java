package dev.puddle.core.metastore;

import dev.puddle.core.api.Privilege;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * The roles Puddle creates itself, as Apache Polaris does: each realm's {@code service_admin}
 * principal role (held by its root principal), and each warehouse's {@code catalog_admin} catalog
 * role, which holds {@code CATALOG_MANAGE_ACCESS} and {@code CATALOG_MANAGE_CONTENT} on the
 * warehouse and is held by {@code service_admin}. Neither can be deleted.
 */
public final class BuiltInRoles {
  public static final String SERVICE_ADMIN = "service_admin";
  public static final String CATALOG_ADMIN = "catalog_admin";

  /** What a warehouse's catalog_admin holds on its catalog. */
  public static final List<Privilege> CATALOG_ADMIN_PRIVILEGES =
      List.of(Privilege.CATALOG_MANAGE_ACCESS, Privilege.CATALOG_MANAGE_CONTENT);

  private BuiltInRoles() {}

  /**
   * Creates a new warehouse's catalog_admin with its privileges and grants it to the realm's
   * service_admin, if the realm has been bootstrapped.
   */
  static void createCatalogAdmin(Connection connection, String realm, long warehouseId)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "WITH role AS ("
                + " INSERT INTO catalog_role (realm_id, warehouse_id, name) VALUES (?, ?, ?)"
                + " RETURNING id),"
                + " privileges AS ("
                + " INSERT INTO privilege_grant (realm_id, catalog_role_id, securable, privilege)"
                + " SELECT ?, role.id, 'catalog', p FROM role, unnest(?::text[]) AS p)"
                + " INSERT INTO catalog_role_grant (realm_id, principal_role_id, catalog_role_id)"
                + " SELECT ?, pr.id, role.id FROM role JOIN principal_role pr"
                + " ON pr.realm_id = ? AND pr.name = ?")) {
      statement.setString(1, realm);
      statement.setLong(2, warehouseId);
      statement.setString(3, CATALOG_ADMIN);
      statement.setString(4, realm);
      statement.setArray(
          5,
          connection.createArrayOf(
              "text", CATALOG_ADMIN_PRIVILEGES.stream().map(Enum::name).toArray()));
      statement.setString(6, realm);
      statement.setString(7, realm);
      statement.setString(8, SERVICE_ADMIN);
      statement.executeUpdate();
    }
  }
}
