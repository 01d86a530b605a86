package dev.puddle.core.metastore;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * Reads the catalog state a warehouse's files cannot give back into one JSON document: realms,
 * warehouses and their properties, namespaces and their properties, the tables' and views' names
 * and locations, principals (their client secrets only as the stored PBKDF2 hashes), principal
 * roles, catalog roles and every grant. Rows name each other by name, never by row id, so {@link
 * CatalogRestore} can put them back into a metastore whose ids differ. Read in one repeatable-read
 * snapshot, so the document is consistent.
 */
public final class CatalogExport {
  /** The document's format; a restore refuses other formats. */
  public static final int FORMAT = 1;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** How a column's value goes into the document. */
  private enum Value {
    TEXT,
    LONG,
    BOOLEAN,
    /** {@code bytea}, as base64 */
    BYTES,
    /** {@code text[]}, as an array of strings (null stays null) */
    LEVELS,
    /** a {@code jsonb} string map, read as text */
    PROPERTIES
  }

  private record Column(String name, Value value) {}

  /** A section of the document: its query and its columns, in the query's order. */
  private record Section(String name, String sql, List<Column> columns) {}

  private static Column text(String name) {
    return new Column(name, Value.TEXT);
  }

  private static Column of(String name, Value value) {
    return new Column(name, value);
  }

  private static final List<Section> SECTIONS =
      List.of(
          new Section("realms", "SELECT id FROM realm ORDER BY id", List.of(text("id"))),
          new Section(
              "warehouses",
              "SELECT realm_id, name, location, properties::text FROM warehouse"
                  + " ORDER BY realm_id, name",
              List.of(
                  text("realm"),
                  text("name"),
                  text("location"),
                  of("properties", Value.PROPERTIES))),
          new Section(
              "namespaces",
              "SELECT w.realm_id, w.name, n.levels, n.properties::text"
                  + " FROM namespace n JOIN warehouse w ON w.id = n.warehouse_id"
                  + " ORDER BY w.realm_id, w.name, n.levels",
              List.of(
                  text("realm"),
                  text("warehouse"),
                  of("namespace", Value.LEVELS),
                  of("properties", Value.PROPERTIES))),
          new Section(
              "objects",
              "SELECT w.realm_id, w.name, n.levels, o.name, o.kind, o.location, o.owns_location,"
                  + " o.metadata_location"
                  + " FROM catalog_object o JOIN namespace n ON n.id = o.namespace_id"
                  + " JOIN warehouse w ON w.id = o.warehouse_id"
                  + " ORDER BY w.realm_id, w.name, n.levels, o.name",
              List.of(
                  text("realm"),
                  text("warehouse"),
                  of("namespace", Value.LEVELS),
                  text("name"),
                  text("kind"),
                  text("location"),
                  of("ownsLocation", Value.BOOLEAN),
                  text("metadataLocation"))),
          new Section(
              "principals",
              "SELECT realm_id, name, client_id, secret_algorithm, secret_iterations, secret_salt,"
                  + " secret_hash, properties::text FROM principal ORDER BY realm_id, name",
              List.of(
                  text("realm"),
                  text("name"),
                  text("clientId"),
                  text("secretAlgorithm"),
                  of("secretIterations", Value.LONG),
                  of("secretSalt", Value.BYTES),
                  of("secretHash", Value.BYTES),
                  of("properties", Value.PROPERTIES))),
          new Section(
              "principalRoles",
              "SELECT realm_id, name, properties::text FROM principal_role"
                  + " ORDER BY realm_id, name",
              List.of(text("realm"), text("name"), of("properties", Value.PROPERTIES))),
          new Section(
              "principalRoleGrants",
              "SELECT g.realm_id, p.name, r.name FROM principal_role_grant g"
                  + " JOIN principal p ON p.id = g.principal_id"
                  + " JOIN principal_role r ON r.id = g.principal_role_id ORDER BY 1, 2, 3",
              List.of(text("realm"), text("principal"), text("principalRole"))),
          new Section(
              "catalogRoles",
              "SELECT c.realm_id, w.name, c.name, c.properties::text FROM catalog_role c"
                  + " JOIN warehouse w ON w.id = c.warehouse_id ORDER BY 1, 2, 3",
              List.of(
                  text("realm"),
                  text("warehouse"),
                  text("name"),
                  of("properties", Value.PROPERTIES))),
          new Section(
              "catalogRoleGrants",
              "SELECT g.realm_id, r.name, w.name, c.name FROM catalog_role_grant g"
                  + " JOIN principal_role r ON r.id = g.principal_role_id"
                  + " JOIN catalog_role c ON c.id = g.catalog_role_id"
                  + " JOIN warehouse w ON w.id = c.warehouse_id ORDER BY 1, 2, 3, 4",
              List.of(
                  text("realm"), text("principalRole"), text("warehouse"), text("catalogRole"))),
          // a grant on a table or view names it by its namespace and name, and says which kind
          new Section(
              "privilegeGrants",
              "SELECT g.realm_id, w.name, c.name, g.securable,"
                  + " COALESCE(n.levels, object_namespace.levels), o.name, g.privilege"
                  + " FROM privilege_grant g JOIN catalog_role c ON c.id = g.catalog_role_id"
                  + " JOIN warehouse w ON w.id = c.warehouse_id"
                  + " LEFT JOIN namespace n ON n.id = g.namespace_id"
                  + " LEFT JOIN catalog_object o ON o.id = g.object_id"
                  + " LEFT JOIN namespace object_namespace ON object_namespace.id = o.namespace_id"
                  + " ORDER BY 1, 2, 3, 4, 5, 6, 7",
              List.of(
                  text("realm"),
                  text("warehouse"),
                  text("catalogRole"),
                  text("securable"),
                  of("namespace", Value.LEVELS),
                  text("name"),
                  text("privilege"))));

  private final Database database;

  public CatalogExport(Database database) {
    this.database = database;
  }

  /**
   * The whole catalog's state as an export document. The sections are read one after another in one
   * transaction; a row whose referent is changed meanwhile is reported by the restore, never
   * half-written.
   */
  public ObjectNode read(Instant exportedAt) {
    return database.transaction(
        connection -> {
          ObjectNode document = MAPPER.createObjectNode();
          document.put("format", FORMAT);
          document.put("exportedAt", exportedAt.toString());
          for (Section section : SECTIONS) {
            document.set(section.name(), rows(connection, section));
          }
          return document;
        });
  }

  private static ArrayNode rows(Connection connection, Section section) throws SQLException {
    ArrayNode rows = MAPPER.createArrayNode();
    try (PreparedStatement statement = connection.prepareStatement(section.sql());
        ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        ObjectNode row = rows.addObject();
        for (int i = 0; i < section.columns().size(); i++) {
          put(row, section.columns().get(i), rs, i + 1);
        }
      }
    }
    return rows;
  }

  private static void put(ObjectNode row, Column column, ResultSet rs, int i) throws SQLException {
    String name = column.name();
    switch (column.value()) {
      case TEXT -> row.put(name, rs.getString(i));
      case LONG -> row.put(name, rs.getLong(i));
      case BOOLEAN -> row.put(name, rs.getBoolean(i));
      case BYTES -> {
        byte[] bytes = rs.getBytes(i);
        row.put(name, bytes == null ? null : Base64.getEncoder().encodeToString(bytes));
      }
      case LEVELS -> {
        Array array = rs.getArray(i);
        if (array == null) {
          row.putNull(name);
        } else {
          ArrayNode levels = row.putArray(name);
          for (Object level : (Object[]) array.getArray()) {
            levels.add((String) level);
          }
        }
      }
      case PROPERTIES -> {
        ObjectNode properties = row.putObject(name);
        Json.toMap(rs.getString(i)).forEach(properties::put);
      }
    }
  }
}
