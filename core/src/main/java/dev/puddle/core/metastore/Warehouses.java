package dev.puddle.core.metastore;

import dev.puddle.core.access.BuiltInRoles;
import dev.puddle.core.events.CatalogEvents;
import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * The warehouses of each realm: created, listed, deleted, and looked up by realm and name. Lookups
 * are cached for a short time per execution environment, which is safe to lose: a warehouse's id
 * and location never change.
 */
public final class Warehouses {
  private static final Duration CACHE_TTL = Duration.ofSeconds(60);
  private static final Pattern VALID_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  private record Cached(Warehouse warehouse, long expiresAtNanos) {}

  private final Database database;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  public Warehouses(Database database) {
    this.database = database;
  }

  /** The warehouse, or NotFoundException (404) if the realm has none of that name. */
  public Warehouse get(String realm, String name) {
    String key = realm + '\u0000' + name;
    Cached cached = cache.get(key);
    long now = System.nanoTime();
    if (cached != null && now - cached.expiresAtNanos < 0) {
      return cached.warehouse;
    }
    Warehouse warehouse =
        find(realm, name)
            .orElseThrow(() -> new NotFoundException("Warehouse does not exist: %s", name));
    cache.put(key, new Cached(warehouse, now + CACHE_TTL.toNanos()));
    return warehouse;
  }

  private Optional<Warehouse> find(String realm, String name) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT id, location, properties::text FROM warehouse"
                      + " WHERE realm_id = ? AND name = ?")) {
            statement.setString(1, realm);
            statement.setString(2, name);
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                return Optional.empty();
              }
              return Optional.of(
                  new Warehouse(
                      rs.getLong(1), realm, name, rs.getString(2), Json.toMap(rs.getString(3))));
            }
          }
        });
  }

  /**
   * Creates the realm if needed and the warehouse if it does not exist yet; returns it. A new
   * warehouse gets its catalog_admin catalog role (see {@link BuiltInRoles}).
   */
  public Warehouse ensure(String realm, String name, String location, Map<String, String> props) {
    checkName(name);
    DropRetention.of(props);
    database.transaction(
        connection -> {
          insertRealm(connection, realm);
          insert(connection, realm, name, location, props);
          return null;
        });
    return find(realm, name).orElseThrow();
  }

  /**
   * Creates a warehouse of an existing realm with its catalog_admin catalog role; 409 if the realm
   * has a warehouse of that name.
   */
  public Warehouse create(
      String realm, String name, String location, Map<String, String> props, Change change) {
    checkName(name);
    if (!isStorageLocation(location)) {
      throw new BadRequestException(
          "Invalid location of warehouse %s: expected a URI such as s3://bucket/prefix", name);
    }
    DropRetention.of(props);
    database.transaction(
        change,
        (connection, events) -> {
          if (!insert(connection, realm, name, location, props)) {
            throw new AlreadyExistsException("Warehouse already exists: %s", name);
          }
          events.add(
              CatalogEvents.management(realm, null, "create-warehouse", Map.of("warehouse", name)));
          return null;
        });
    return find(realm, name).orElseThrow();
  }

  /**
   * The current properties of the warehouse of that id (none if it is gone), read now rather than
   * from the cache: e.g. whether a purge may delete files outside a table's location.
   */
  public Map<String, String> properties(long id) {
    return database.read(connection -> properties(connection, id));
  }

  /** The properties of the warehouse of that id as {@code connection}'s transaction sees them. */
  static Map<String, String> properties(Connection connection, long id) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT properties::text FROM warehouse WHERE id = ?")) {
      statement.setLong(1, id);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? Json.toMap(rs.getString(1)) : Map.of();
      }
    }
  }

  /**
   * Sets and removes properties of a warehouse under its row lock, so that concurrent updates keep
   * each other's keys; 400 if the result sets a setting wrongly (e.g. {@link DropRetention}), 404
   * if the realm has no warehouse of that name. Lookups cached by other execution environments see
   * the new properties within {@link #CACHE_TTL}; drops read theirs in their own transaction.
   */
  public Namespaces.PropertiesUpdate updateProperties(
      String realm, String name, Map<String, String> updates, Set<String> removals, Change change) {
    Namespaces.PropertiesUpdate result =
        database.transaction(
            change,
            (connection, events) -> {
              long id;
              Map<String, String> properties;
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT id, properties::text FROM warehouse"
                          + " WHERE realm_id = ? AND name = ? FOR UPDATE")) {
                statement.setString(1, realm);
                statement.setString(2, name);
                try (ResultSet rs = statement.executeQuery()) {
                  if (!rs.next()) {
                    throw new NotFoundException("Warehouse does not exist: %s", name);
                  }
                  id = rs.getLong(1);
                  properties = new TreeMap<>(Json.toMap(rs.getString(2)));
                }
              }
              List<String> removed = new ArrayList<>();
              List<String> missing = new ArrayList<>();
              for (String key : new TreeSet<>(removals)) {
                (properties.remove(key) != null ? removed : missing).add(key);
              }
              properties.putAll(updates);
              DropRetention.of(properties);
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "UPDATE warehouse SET properties = ?::jsonb WHERE id = ?")) {
                statement.setString(1, Json.fromMap(properties));
                statement.setLong(2, id);
                statement.executeUpdate();
              }
              events.add(
                  CatalogEvents.management(
                      realm, null, "update-warehouse-properties", Map.of("warehouse", name)));
              return new Namespaces.PropertiesUpdate(
                  new ArrayList<>(updates.keySet()), removed, missing);
            });
    cache.remove(realm + '\u0000' + name);
    return result;
  }

  /** The realm's warehouses, by name. */
  public List<Warehouse> list(String realm) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT id, name, location, properties::text FROM warehouse"
                      + " WHERE realm_id = ? ORDER BY name")) {
            statement.setString(1, realm);
            List<Warehouse> result = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                result.add(
                    new Warehouse(
                        rs.getLong(1),
                        realm,
                        rs.getString(2),
                        rs.getString(3),
                        Json.toMap(rs.getString(4))));
              }
            }
            return result;
          }
        });
  }

  /**
   * Deletes an empty warehouse with its catalog roles and grants and its finished purge jobs; 409
   * while it has namespaces, purge jobs still to run or dropped objects kept for undrop.
   */
  public void delete(String realm, String name, Change change) {
    database.transaction(
        change,
        (connection, events) -> {
          long id;
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT id, EXISTS (SELECT 1 FROM namespace n WHERE n.warehouse_id = w.id),"
                      + " EXISTS (SELECT 1 FROM purge_job j WHERE j.warehouse_id = w.id"
                      + " AND j.state IN ('queued', 'running')),"
                      + " EXISTS (SELECT 1 FROM dropped_object d WHERE d.warehouse_id = w.id)"
                      + " FROM warehouse w WHERE realm_id = ? AND name = ? FOR UPDATE")) {
            statement.setString(1, realm);
            statement.setString(2, name);
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                throw new NotFoundException("Warehouse does not exist: %s", name);
              }
              if (rs.getBoolean(2)) {
                throw new NamespaceNotEmptyException(
                    "Warehouse %s is not empty: it has namespaces", name);
              }
              if (rs.getBoolean(3)) {
                throw new NamespaceNotEmptyException(
                    "Warehouse %s is not empty: purge jobs of dropped tables are still to run",
                    name);
              }
              if (rs.getBoolean(4)) {
                throw new NamespaceNotEmptyException(
                    "Warehouse %s is not empty: dropped tables or views wait for their purge"
                        + " (see its dropped-objects)",
                    name);
              }
              id = rs.getLong(1);
            }
          }
          try (PreparedStatement statement =
              connection.prepareStatement("DELETE FROM purge_job WHERE warehouse_id = ?")) {
            statement.setLong(1, id);
            statement.executeUpdate();
          }
          try (PreparedStatement statement =
              connection.prepareStatement("DELETE FROM warehouse WHERE id = ?")) {
            statement.setLong(1, id);
            statement.executeUpdate();
          } catch (SQLException e) {
            if (SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION)) {
              // a namespace was created after the check
              throw new NamespaceNotEmptyException(
                  "Warehouse %s is not empty: it has namespaces", name);
            }
            throw e;
          }
          events.add(
              CatalogEvents.management(realm, null, "delete-warehouse", Map.of("warehouse", name)));
          return null;
        });
    cache.remove(realm + '\u0000' + name);
  }

  /** Whether {@code location} names a place in an object store: a scheme and a bucket. */
  private static boolean isStorageLocation(String location) {
    try {
      URI uri = new URI(location.strip());
      return uri.getScheme() != null && uri.getAuthority() != null;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static void checkName(String name) {
    if (name == null || !VALID_NAME.matcher(name).matches()) {
      throw new BadRequestException(
          "Invalid warehouse name %s: use letters, digits, '.', '_' and '-'", name);
    }
  }

  /** Creates the realm's row if it has none yet. */
  public static void insertRealm(Connection connection, String realm) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("INSERT INTO realm (id) VALUES (?) ON CONFLICT DO NOTHING")) {
      statement.setString(1, realm);
      statement.executeUpdate();
    }
  }

  /** Inserts the warehouse and its catalog_admin; false if it exists already. */
  private static boolean insert(
      Connection connection, String realm, String name, String location, Map<String, String> props)
      throws SQLException {
    long id;
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO warehouse (realm_id, name, location, properties)"
                + " VALUES (?, ?, ?, ?::jsonb) ON CONFLICT (realm_id, name) DO NOTHING"
                + " RETURNING id")) {
      statement.setString(1, realm);
      statement.setString(2, name);
      statement.setString(3, Locations.normalize(location));
      statement.setString(4, Json.fromMap(props));
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          return false;
        }
        id = rs.getLong(1);
      }
    }
    createCatalogAdmin(connection, realm, id);
    return true;
  }

  /**
   * Creates a new warehouse's catalog_admin with its privileges and grants it to the realm's
   * service_admin, if the realm has been bootstrapped.
   */
  private static void createCatalogAdmin(Connection connection, String realm, long warehouseId)
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
      statement.setString(3, BuiltInRoles.CATALOG_ADMIN);
      statement.setString(4, realm);
      statement.setArray(
          5,
          connection.createArrayOf(
              "text", BuiltInRoles.CATALOG_ADMIN_PRIVILEGES.stream().map(Enum::name).toArray()));
      statement.setString(6, realm);
      statement.setString(7, realm);
      statement.setString(8, BuiltInRoles.SERVICE_ADMIN);
      statement.executeUpdate();
    }
  }
}
