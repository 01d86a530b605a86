package dev.puddle.core.access;

import dev.puddle.core.api.Privilege;
import dev.puddle.core.api.RequestScope;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.BuiltInRoles;
import dev.puddle.core.metastore.Database;
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
 * caller's grants in that warehouse, not with the warehouse's size; the statement is a function
 * whose plan PostgreSQL keeps, so it is not planned on every request. Nothing is cached here, so a
 * revoked grant no longer counts on the next request.
 */
public final class AccessQuery {
  /** The caller's grants in a warehouse: {@code caller_grants} (migration V6) says how. */
  private static final String SQL = "SELECT * FROM caller_grants(?, ?, ?, ?, ?)";

  private final Database database;

  public AccessQuery(Database database) {
    this.database = database;
  }

  /**
   * The caller's access in the warehouse {@code warehouseId}, or only whether it is service admin
   * when {@code warehouseId} is null.
   */
  public CallerAccess load(Caller caller, Long warehouseId) {
    // once per request: vending's data-access check and the route's own check share one read
    return RequestScope.current()
        .memo(new Key(caller, warehouseId), () -> query(caller, warehouseId));
  }

  private record Key(Caller caller, Long warehouseId) {}

  private CallerAccess query(Caller caller, Long warehouseId) {
    return database.read(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(SQL)) {
            statement.setString(1, caller.realm());
            statement.setString(2, caller.principal());
            statement.setBoolean(3, caller.allRoles());
            statement.setArray(
                4, connection.createArrayOf("text", caller.roles().toArray(String[]::new)));
            // no warehouse has id 0: bigserial starts at 1
            statement.setLong(5, warehouseId == null ? 0 : warehouseId);
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
        serviceAdmin |= rs.getString(1).equals(BuiltInRoles.SERVICE_ADMIN);
        catalogRole |= rs.getString(2) != null;
        String privilege = rs.getString(3);
        if (privilege != null) {
          grants.add(new Grant(Privilege.valueOf(privilege), securable(rs)));
        }
      }
    }
    return new CallerAccess(caller, serviceAdmin, catalogRole, grants);
  }

  private static Securable securable(ResultSet rs) throws SQLException {
    Securable.Kind kind = Securable.Kind.valueOf(rs.getString(4).toUpperCase(Locale.ROOT));
    if (kind == Securable.Kind.CATALOG) {
      return Securable.catalog();
    }
    Namespace namespace = Namespace.of((String[]) rs.getArray(5).getArray());
    return new Securable(kind, namespace, rs.getString(6));
  }
}
