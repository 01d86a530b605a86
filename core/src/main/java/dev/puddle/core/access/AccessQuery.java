package dev.puddle.core.access;

import dev.puddle.core.api.Privilege;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.BuiltInRoles;
import dev.puddle.core.metastore.Database;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.catalog.Namespace;

/**
 * Reads a caller's access in one SQL statement: from the principal through its activated principal
 * roles (is one of them {@code service_admin}?) and on to the catalog roles of one warehouse and
 * every privilege they hold there, each with the path of its securable. Its cost grows with the
 * caller's grants in that warehouse, not with the warehouse's size. Nothing is cached, so a revoked
 * grant no longer counts on the next request.
 */
public final class AccessQuery {
  private static final String ROLES =
      " FROM principal p"
          + " JOIN principal_role_grant prg ON prg.principal_id = p.id"
          + " JOIN principal_role pr ON pr.id = prg.principal_role_id"
          + " WHERE p.realm_id = ? AND p.name = ? AND (? OR pr.name = ANY(?))";

  private static final String SQL =
      "SELECT 'service', NULL, NULL, NULL::text[], NULL"
          + ROLES
          + " AND pr.name = '"
          + BuiltInRoles.SERVICE_ADMIN
          + "'"
          + " UNION ALL"
          + " SELECT 'catalog', g.privilege, g.securable, COALESCE(n.levels, objn.levels), o.name"
          + ROLES.replace(
              " WHERE",
              " JOIN catalog_role_grant crg ON crg.principal_role_id = pr.id"
                  + " JOIN catalog_role cr ON cr.id = crg.catalog_role_id"
                  + " LEFT JOIN privilege_grant g ON g.catalog_role_id = cr.id"
                  + " LEFT JOIN namespace n ON n.id = g.namespace_id"
                  + " LEFT JOIN catalog_object o ON o.id = g.object_id"
                  + " LEFT JOIN namespace objn ON objn.id = o.namespace_id"
                  + " WHERE")
          + " AND cr.warehouse_id = ?";

  private final Database database;

  public AccessQuery(Database database) {
    this.database = database;
  }

  /**
   * The caller's access in the warehouse {@code warehouseId}, or only whether it is service admin
   * when {@code warehouseId} is null.
   */
  public CallerAccess load(Caller caller, Long warehouseId) {
    return database.read(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(SQL)) {
            Array roles = connection.createArrayOf("text", caller.roles().toArray(String[]::new));
            int i = 0;
            for (int part = 0; part < 2; part++) {
              statement.setString(++i, caller.realm());
              statement.setString(++i, caller.principal());
              statement.setBoolean(++i, caller.allRoles());
              statement.setArray(++i, roles);
            }
            // no warehouse has id 0: bigserial starts at 1
            statement.setLong(++i, warehouseId == null ? 0 : warehouseId);
            return read(caller, statement);
          }
        });
  }

  private static CallerAccess read(Caller caller, PreparedStatement statement) throws SQLException {
    boolean serviceAdmin = false;
    boolean catalogRole = false;
    List<Grant> grants = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        if (rs.getString(1).equals("service")) {
          serviceAdmin = true;
          continue;
        }
        catalogRole = true;
        String privilege = rs.getString(2);
        if (privilege != null) {
          grants.add(new Grant(Privilege.valueOf(privilege), securable(rs)));
        }
      }
    }
    return new CallerAccess(caller, serviceAdmin, catalogRole, grants);
  }

  private static Securable securable(ResultSet rs) throws SQLException {
    Securable.Kind kind = Securable.Kind.valueOf(rs.getString(3).toUpperCase(Locale.ROOT));
    if (kind == Securable.Kind.CATALOG) {
      return Securable.catalog();
    }
    Namespace namespace = Namespace.of((String[]) rs.getArray(4).getArray());
    return new Securable(kind, namespace, rs.getString(5));
  }
}
