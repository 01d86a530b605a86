package dev.puddle.core.metastore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Looks up warehouses by realm and name. Lookups are cached for a short time per execution
 * environment, which is safe to lose: a warehouse's id and location never change.
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
   * Creates the realm if needed and the warehouse if it does not exist yet; returns it. A
   * warehouse name is the REST prefix, so it is limited to characters that need no encoding.
   */
  public Warehouse ensure(String realm, String name, String location, Map<String, String> props) {
    if (!VALID_NAME.matcher(name).matches()) {
      throw new BadRequestException(
          "Invalid warehouse name %s: use letters, digits, '.', '_' and '-'", name);
    }
    database.transaction(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO realm (id) VALUES (?) ON CONFLICT DO NOTHING")) {
            statement.setString(1, realm);
            statement.executeUpdate();
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO warehouse (realm_id, name, location, properties)"
                      + " VALUES (?, ?, ?, ?::jsonb) ON CONFLICT (realm_id, name) DO NOTHING")) {
            statement.setString(1, realm);
            statement.setString(2, name);
            statement.setString(3, Locations.normalize(location));
            statement.setString(4, Json.fromMap(props));
            statement.executeUpdate();
          }
          return null;
        });
    return find(realm, name).orElseThrow();
  }

}
