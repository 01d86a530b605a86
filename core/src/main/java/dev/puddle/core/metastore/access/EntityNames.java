package dev.puddle.core.metastore.access;

import dev.puddle.core.metastore.SqlErrors;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.regex.Pattern;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Names of principals, principal roles and catalog roles: they appear in management API paths, so
 * they are limited to characters that need no encoding; and the lookups of their row ids.
 */
final class EntityNames {
  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,127}");

  private EntityNames() {}

  /** Fails with 400 unless {@code name} is a valid name of a {@code what}. */
  static String check(String what, String name) {
    if (name == null || !VALID.matcher(name).matches()) {
      throw new BadRequestException(
          "Invalid %s name %s: use 1 to 128 letters, digits, '.', '_', '@' and '-', starting with"
              + " a letter or digit",
          what, name);
    }
    return name;
  }

  static long principalId(Connection connection, String realm, String name) throws SQLException {
    return id(
        connection,
        "SELECT id FROM principal WHERE realm_id = ? AND name = ?",
        realm,
        name,
        "Principal");
  }

  static long principalRoleId(Connection connection, String realm, String name)
      throws SQLException {
    return id(
        connection,
        "SELECT id FROM principal_role WHERE realm_id = ? AND name = ?",
        realm,
        name,
        "Principal role");
  }

  static long catalogRoleId(Connection connection, long warehouseId, String name)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT id FROM catalog_role WHERE warehouse_id = ? AND name = ?")) {
      statement.setLong(1, warehouseId);
      statement.setString(2, name);
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          throw new NotFoundException("Catalog role does not exist: %s", name);
        }
        return rs.getLong(1);
      }
    }
  }

  private static long id(Connection connection, String sql, String realm, String name, String what)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, realm);
      statement.setString(2, name);
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          throw new NotFoundException("%s does not exist: %s", what, name);
        }
        return rs.getLong(1);
      }
    }
  }

  /**
   * What a foreign key violation means to a grant whose parts were looked up moments ago: one of
   * them was deleted concurrently, so it no longer exists (404); anything else is unexpected.
   */
  static SQLException orGone(SQLException e, String what) {
    if (SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION)) {
      throw new NotFoundException("%s was deleted concurrently", what);
    }
    return e;
  }

  /** Whether {@code e} is the unique violation of an insert of an existing name. */
  static boolean duplicate(SQLException e) {
    return SqlErrors.is(e, SqlErrors.UNIQUE_VIOLATION);
  }
}
