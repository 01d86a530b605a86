package dev.puddle.core.metastore;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;

/**
 * Puts the state of a {@link CatalogExport} document back into a metastore, and re-registers the
 * tables and views a warehouse scan found: the writing half of a rebuild. Every insert names its
 * referents by name and does nothing when the row exists already or a referent is missing, so a
 * rebuild may run again over a partly rebuilt metastore; what was not written is reported, with the
 * reason.
 */
public final class CatalogRestore {
  /** What the metastore holds that a rebuild would write: it must hold none unless forced. */
  public record Contents(long namespaces, long objects, long droppedObjects) {
    public boolean isEmpty() {
      return namespaces == 0 && objects == 0 && droppedObjects == 0;
    }
  }

  /** A row of the export that was not restored, and why. */
  public record Skipped(String section, String row, String reason) {}

  /** What a restore of an export did: rows written per section, and those skipped. */
  public record Restored(Map<String, Integer> written, List<Skipped> skipped) {}

  private final Database database;

  public CatalogRestore(Database database) {
    this.database = database;
  }

  /** How many namespaces, tables and views (live and dropped) the metastore holds. */
  public Contents contents() {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT (SELECT count(*) FROM namespace), (SELECT count(*) FROM"
                          + " catalog_object), (SELECT count(*) FROM dropped_object)");
              ResultSet rs = statement.executeQuery()) {
            rs.next();
            return new Contents(rs.getLong(1), rs.getLong(2), rs.getLong(3));
          }
        });
  }

  /** Every warehouse of every realm, by realm and name. */
  public List<Warehouse> warehouses() {
    return database.read(
        connection -> {
          List<Warehouse> result = new ArrayList<>();
          try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT id, realm_id, name, location, properties::text FROM warehouse"
                          + " ORDER BY realm_id, name");
              ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
              result.add(
                  new Warehouse(
                      rs.getLong(1),
                      rs.getString(2),
                      rs.getString(3),
                      rs.getString(4),
                      Json.toMap(rs.getString(5))));
            }
          }
          return result;
        });
  }

  /**
   * Restores realms, warehouses, principals, principal roles and their grants, namespaces and
   * catalog roles with their grants to principal roles: everything but the privileges, which name
   * tables and views that must be registered first ({@link #restorePrivileges}).
   */
  public Restored restoreEntities(JsonNode export) {
    checkFormat(export);
    Map<String, Integer> written = new LinkedHashMap<>();
    List<Skipped> skipped = new ArrayList<>();
    database.autocommit(
        connection -> {
          for (JsonNode row : export.path("realms")) {
            count(
                written, skipped, "realms", row.path("id").asText(), insertRealm(connection, row));
          }
          for (JsonNode row : export.path("warehouses")) {
            count(written, skipped, "warehouses", name(row), insertWarehouse(connection, row));
          }
          for (JsonNode row : export.path("principals")) {
            count(written, skipped, "principals", name(row), insertPrincipal(connection, row));
          }
          for (JsonNode row : export.path("principalRoles")) {
            count(
                written,
                skipped,
                "principalRoles",
                name(row),
                insertPrincipalRole(connection, row));
          }
          for (JsonNode row : export.path("principalRoleGrants")) {
            count(
                written,
                skipped,
                "principalRoleGrants",
                text(row, "principal") + " -> " + text(row, "principalRole"),
                insertPrincipalRoleGrant(connection, row));
          }
          for (JsonNode row : export.path("namespaces")) {
            Namespace namespace = namespace(row);
            long warehouseId = warehouseId(connection, text(row, "realm"), text(row, "warehouse"));
            count(
                written,
                skipped,
                "namespaces",
                text(row, "warehouse") + ":" + namespace,
                warehouseId >= 0
                    && ensureNamespace(
                        connection, warehouseId, namespace, properties(row.path("properties"))));
          }
          for (JsonNode row : export.path("catalogRoles")) {
            count(
                written,
                skipped,
                "catalogRoles",
                text(row, "warehouse") + ":" + text(row, "name"),
                insertCatalogRole(connection, row));
          }
          for (JsonNode row : export.path("catalogRoleGrants")) {
            count(
                written,
                skipped,
                "catalogRoleGrants",
                text(row, "principalRole") + " -> " + text(row, "catalogRole"),
                insertCatalogRoleGrant(connection, row));
          }
          return null;
        });
    return new Restored(written, skipped);
  }

  /** Restores the privileges of catalog roles, once the tables and views are registered. */
  public Restored restorePrivileges(JsonNode export) {
    checkFormat(export);
    Map<String, Integer> written = new LinkedHashMap<>();
    List<Skipped> skipped = new ArrayList<>();
    database.autocommit(
        connection -> {
          for (JsonNode row : export.path("privilegeGrants")) {
            String securable = text(row, "securable");
            String on =
                switch (securable) {
                  case "catalog" -> text(row, "warehouse");
                  case "namespace" -> text(row, "warehouse") + ":" + namespace(row);
                  default ->
                      text(row, "warehouse") + ":" + namespace(row) + "." + text(row, "name");
                };
            count(
                written,
                skipped,
                "privilegeGrants",
                text(row, "privilege")
                    + " on "
                    + securable
                    + " "
                    + on
                    + " to "
                    + text(row, "catalogRole"),
                insertPrivilege(connection, row));
          }
          return null;
        });
    return new Restored(written, skipped);
  }

  /**
   * Creates the namespace and any missing ancestor (those without properties); false if it existed.
   */
  public boolean ensureNamespace(Warehouse warehouse, Namespace namespace) {
    return database.autocommit(
        connection -> ensureNamespace(connection, warehouse.id(), namespace, Map.of()));
  }

  /**
   * Registers a table or view found in the warehouse, checked as a create is (its namespace exists,
   * its name is free, a location it owns overlaps no other); the reason it was not is the
   * exception's message.
   */
  public void register(Warehouse warehouse, CatalogObject object) {
    database.transaction(
        connection -> {
          CatalogObjects.insert(connection, warehouse, object);
          return null;
        });
  }

  private static void checkFormat(JsonNode export) {
    if (export.path("format").asInt() != CatalogExport.FORMAT) {
      throw new IllegalArgumentException(
          "Not a catalog export of format " + CatalogExport.FORMAT + ": " + export.path("format"));
    }
  }

  private static void count(
      Map<String, Integer> written,
      List<Skipped> skipped,
      String section,
      String row,
      boolean inserted) {
    if (inserted) {
      written.merge(section, 1, Integer::sum);
    } else {
      written.putIfAbsent(section, 0);
      skipped.add(
          new Skipped(section, row, "exists already, or names something the metastore lacks"));
    }
  }

  /** Runs one {@code INSERT ... ON CONFLICT DO NOTHING} of text values: whether it added a row. */
  private static boolean insert(Connection connection, String sql, String... values)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        statement.setString(i + 1, values[i]);
      }
      return statement.executeUpdate() > 0;
    }
  }

  private static boolean insertRealm(Connection connection, JsonNode row) throws SQLException {
    return insert(
        connection, "INSERT INTO realm (id) VALUES (?) ON CONFLICT DO NOTHING", text(row, "id"));
  }

  private static boolean insertWarehouse(Connection connection, JsonNode row) throws SQLException {
    return insert(
        connection,
        "INSERT INTO warehouse (realm_id, name, location, properties)"
            + " SELECT r.id, ?, ?, ?::jsonb FROM realm r WHERE r.id = ?"
            + " ON CONFLICT (realm_id, name) DO NOTHING",
        text(row, "name"),
        text(row, "location"),
        Json.fromMap(properties(row.path("properties"))),
        text(row, "realm"));
  }

  private static boolean insertPrincipal(Connection connection, JsonNode row) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO principal (realm_id, name, client_id, secret_algorithm,"
                + " secret_iterations, secret_salt, secret_hash, properties)"
                + " SELECT r.id, ?, ?, ?, ?, ?, ?, ?::jsonb FROM realm r WHERE r.id = ?"
                + " ON CONFLICT DO NOTHING")) {
      statement.setString(1, text(row, "name"));
      statement.setString(2, text(row, "clientId"));
      statement.setString(3, text(row, "secretAlgorithm"));
      statement.setInt(4, row.path("secretIterations").asInt());
      statement.setBytes(5, Base64.getDecoder().decode(text(row, "secretSalt")));
      statement.setBytes(6, Base64.getDecoder().decode(text(row, "secretHash")));
      statement.setString(7, Json.fromMap(properties(row.path("properties"))));
      statement.setString(8, text(row, "realm"));
      return statement.executeUpdate() > 0;
    }
  }

  private static boolean insertPrincipalRole(Connection connection, JsonNode row)
      throws SQLException {
    return insert(
        connection,
        "INSERT INTO principal_role (realm_id, name, properties)"
            + " SELECT r.id, ?, ?::jsonb FROM realm r WHERE r.id = ? ON CONFLICT DO NOTHING",
        text(row, "name"),
        Json.fromMap(properties(row.path("properties"))),
        text(row, "realm"));
  }

  private static boolean insertPrincipalRoleGrant(Connection connection, JsonNode row)
      throws SQLException {
    return insert(
        connection,
        "INSERT INTO principal_role_grant (realm_id, principal_id, principal_role_id)"
            + " SELECT p.realm_id, p.id, r.id FROM principal p JOIN principal_role r"
            + " ON r.realm_id = p.realm_id WHERE p.realm_id = ? AND p.name = ? AND r.name = ?"
            + " ON CONFLICT DO NOTHING",
        text(row, "realm"),
        text(row, "principal"),
        text(row, "principalRole"));
  }

  private static boolean insertCatalogRole(Connection connection, JsonNode row)
      throws SQLException {
    return insert(
        connection,
        "INSERT INTO catalog_role (realm_id, warehouse_id, name, properties)"
            + " SELECT w.realm_id, w.id, ?, ?::jsonb FROM warehouse w"
            + " WHERE w.realm_id = ? AND w.name = ? ON CONFLICT DO NOTHING",
        text(row, "name"),
        Json.fromMap(properties(row.path("properties"))),
        text(row, "realm"),
        text(row, "warehouse"));
  }

  private static boolean insertCatalogRoleGrant(Connection connection, JsonNode row)
      throws SQLException {
    return insert(
        connection,
        "INSERT INTO catalog_role_grant (realm_id, principal_role_id, catalog_role_id)"
            + " SELECT r.realm_id, r.id, c.id FROM principal_role r"
            + " JOIN warehouse w ON w.realm_id = r.realm_id"
            + " JOIN catalog_role c ON c.warehouse_id = w.id"
            + " WHERE r.realm_id = ? AND r.name = ? AND w.name = ? AND c.name = ?"
            + " ON CONFLICT DO NOTHING",
        text(row, "realm"),
        text(row, "principalRole"),
        text(row, "warehouse"),
        text(row, "catalogRole"));
  }

  private static boolean insertPrivilege(Connection connection, JsonNode row) throws SQLException {
    String securable = text(row, "securable");
    Namespace namespace = row.path("namespace").isArray() ? namespace(row) : Namespace.empty();
    // the namespace or object the grant is on, resolved by name in the privilege's warehouse; a
    // grant whose securable was not found (it is gone from the warehouse too) is not written
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO privilege_grant"
                + " (realm_id, catalog_role_id, securable, namespace_id, object_id, privilege)"
                + " SELECT t.realm_id, t.role_id, ?, t.namespace_id, t.object_id, ? FROM ("
                + " SELECT c.realm_id, c.id AS role_id,"
                + " CASE WHEN ? = 'namespace' THEN (SELECT n.id FROM namespace n"
                + " WHERE n.warehouse_id = w.id AND n.levels = ?) END AS namespace_id,"
                + " CASE WHEN ? IN ('table', 'view') THEN (SELECT o.id FROM catalog_object o"
                + " JOIN namespace n ON n.id = o.namespace_id WHERE n.warehouse_id = w.id"
                + " AND n.levels = ? AND o.name = ? AND o.kind = ?) END AS object_id"
                + " FROM catalog_role c JOIN warehouse w ON w.id = c.warehouse_id"
                + " WHERE w.realm_id = ? AND w.name = ? AND c.name = ?) t"
                + " WHERE (? <> 'namespace' OR t.namespace_id IS NOT NULL)"
                + " AND (? NOT IN ('table', 'view') OR t.object_id IS NOT NULL)"
                + " ON CONFLICT DO NOTHING")) {
      statement.setString(1, securable);
      statement.setString(2, text(row, "privilege"));
      statement.setString(3, securable);
      statement.setArray(4, Namespaces.levels(connection, namespace));
      statement.setString(5, securable);
      statement.setArray(6, Namespaces.levels(connection, namespace));
      statement.setString(7, row.path("name").asText(""));
      statement.setString(8, securable);
      statement.setString(9, text(row, "realm"));
      statement.setString(10, text(row, "warehouse"));
      statement.setString(11, text(row, "catalogRole"));
      statement.setString(12, securable);
      statement.setString(13, securable);
      return statement.executeUpdate() > 0;
    }
  }

  /** The id of the warehouse of that name, or -1. */
  private static long warehouseId(Connection connection, String realm, String name)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT id FROM warehouse WHERE realm_id = ? AND name = ?")) {
      statement.setString(1, realm);
      statement.setString(2, name);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? rs.getLong(1) : -1;
      }
    }
  }

  /**
   * Creates the namespace, and each missing ancestor without properties; false if the namespace
   * itself existed. Its location is restored as it was, not checked against others': a rebuild
   * writes back a state the catalog once accepted.
   */
  private static boolean ensureNamespace(
      Connection connection, long warehouseId, Namespace namespace, Map<String, String> properties)
      throws SQLException {
    boolean created = false;
    for (int length = 1; length <= namespace.length(); length++) {
      Namespace level = Namespace.of(Arrays.copyOf(namespace.levels(), length));
      boolean last = length == namespace.length();
      Map<String, String> levelProperties = last ? properties : Map.of();
      String location = levelProperties.get(Namespaces.LOCATION);
      try (PreparedStatement statement =
          connection.prepareStatement(
              "INSERT INTO namespace (warehouse_id, parent_id, levels, properties, location)"
                  + " VALUES (?, (SELECT id FROM namespace WHERE warehouse_id = ? AND levels = ?),"
                  + " ?, ?::jsonb, ?) ON CONFLICT (warehouse_id, levels) DO NOTHING")) {
        statement.setLong(1, warehouseId);
        statement.setLong(2, warehouseId);
        statement.setArray(
            3,
            Namespaces.levels(
                connection, Namespace.of(Arrays.copyOf(namespace.levels(), length - 1))));
        statement.setArray(4, Namespaces.levels(connection, level));
        statement.setString(5, Json.fromMap(levelProperties));
        statement.setString(6, location == null ? null : Locations.normalize(location));
        int inserted = statement.executeUpdate();
        if (last) {
          created = inserted > 0;
        }
      }
    }
    return created;
  }

  private static String text(JsonNode row, String field) {
    JsonNode value = row.path(field);
    return value.isMissingNode() || value.isNull() ? null : value.asText();
  }

  private static String name(JsonNode row) {
    return text(row, "realm") + ":" + text(row, "name");
  }

  private static Namespace namespace(JsonNode row) {
    List<String> levels = new ArrayList<>();
    row.path("namespace").forEach(level -> levels.add(level.asText()));
    return Namespace.of(levels.toArray(String[]::new));
  }

  private static Map<String, String> properties(JsonNode node) {
    Map<String, String> properties = new LinkedHashMap<>();
    node.fields().forEachRemaining(e -> properties.put(e.getKey(), e.getValue().asText()));
    return properties;
  }
}
