package dev.puddle.core.metastore;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Keeps locations from overlapping: no table or view that owns its location may lie inside, contain
 * or equal another's (a dropped one kept for undrop included), nor contain or equal the location of
 * a namespace. Every write that sets or changes a location first takes a transaction-scoped
 * advisory lock on its warehouse, so of two concurrent overlapping creates at most one succeeds.
 * Ordinary commits take no lock.
 */
public final class Locations {
  private static final int LOCK_CLASS = 0x6c6f6361; // "loca"
  private static final String DROPPED = "dropped_object";
  private static final String DROPPED_WHAT = "dropped table or view, kept for undrop";

  /**
   * Where objects that own a location are: the live ones, and the dropped ones kept for undrop,
   * whose files are still there and will be purged under their location.
   */
  private static final List<String> OBJECT_TABLES = List.of("catalog_object", DROPPED);

  private Locations() {}

  /** A location without trailing slashes. */
  public static String normalize(String location) {
    String result = location.strip();
    while (result.endsWith("/") && !result.endsWith("://")) {
      result = result.substring(0, result.length() - 1);
    }
    return result;
  }

  /** Whether {@code location} is {@code base} or lies below it. */
  public static boolean isWithin(String location, String base) {
    String l = normalize(location);
    String b = normalize(base);
    return l.equals(b) || l.startsWith(b + "/");
  }

  /** Takes the warehouse's location lock until the end of the current transaction. */
  static void lock(Connection connection, long warehouseId) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
      bindLockKey(statement, 1, warehouseId);
      statement.execute();
    }
  }

  /**
   * Binds the two int halves of the warehouse's location lock key from parameter {@code first} on
   * (as {@code create_catalog_object} takes them); returns the next parameter's index.
   */
  static int bindLockKey(PreparedStatement statement, int first, long warehouseId)
      throws SQLException {
    statement.setInt(first, LOCK_CLASS);
    // ids past 2^31 wrap and may share a key with another warehouse, which only makes that lock
    // coarser (two warehouses wait for each other)
    statement.setInt(first + 1, (int) warehouseId);
    return first + 2;
  }

  /** Binds the parameters of a conflict query. */
  @FunctionalInterface
  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  /**
   * The refusal of {@code location} for the conflict {@code object_location_conflict} (V18) found:
   * {@code what} 1 is a table or view, 2 one dropped and kept for undrop, 3 a namespace.
   */
  static BadRequestException objectLocationConflict(String location, int what, String existing) {
    return overlaps(
        location,
        existing,
        switch (what) {
          case 1 -> "table or view";
          case 2 -> DROPPED_WHAT;
          default -> "namespace";
        });
  }

  /**
   * Fails if an object location would overlap another object (other than {@code self}), live or
   * kept for undrop, or contain a namespace location. Call under {@link #lock}.
   */
  static void checkObjectLocation(
      Connection connection, long warehouseId, UUID self, String location) throws SQLException {
    String normalized = normalize(location);
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT * FROM object_location_conflict(?, ?::uuid, ?, ?)")) {
      statement.setLong(1, warehouseId);
      statement.setObject(2, self);
      statement.setString(3, normalized);
      statement.setArray(4, ancestorsArray(connection, normalized));
      try (ResultSet rs = statement.executeQuery()) {
        if (rs.next()) {
          throw objectLocationConflict(normalized, rs.getInt(1), rs.getString(2));
        }
      }
    }
  }

  /**
   * Fails if a namespace location would lie inside or equal the location of an object, or equal
   * another namespace's location. Call under {@link #lock}.
   */
  static void checkNamespaceLocation(
      Connection connection, long warehouseId, long selfId, String location) throws SQLException {
    String normalized = normalize(location);
    for (String objects : OBJECT_TABLES) {
      String conflict =
          firstConflict(
              connection,
              "SELECT location FROM "
                  + objects
                  + " WHERE warehouse_id = ? AND owns_location AND location = ANY (?) LIMIT 1",
              statement -> {
                statement.setLong(1, warehouseId);
                statement.setArray(2, ancestorsArray(connection, normalized));
              });
      if (conflict != null) {
        throw overlaps(
            normalized, conflict, objects.equals(DROPPED) ? DROPPED_WHAT : "table or view");
      }
    }
    String conflict =
        firstConflict(
            connection,
            "SELECT location FROM namespace WHERE warehouse_id = ? AND id <> ? AND location = ?"
                + " LIMIT 1",
            statement -> {
              statement.setLong(1, warehouseId);
              statement.setLong(2, selfId);
              statement.setString(3, normalized);
            });
    if (conflict != null) {
      throw new BadRequestException(
          "Location %s is already the location of another namespace", normalized);
    }
  }

  private static String firstConflict(Connection connection, String sql, Binder binder)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private static BadRequestException overlaps(String location, String existing, String what) {
    return new BadRequestException(
        "Location %s overlaps the location %s of an existing %s", location, existing, what);
  }

  static Array ancestorsArray(Connection connection, String location) throws SQLException {
    return connection.createArrayOf("text", ancestors(location).toArray());
  }

  /** The location and each of its parents, e.g. s3://b/a/t, s3://b/a, s3://b. */
  static List<String> ancestors(String location) {
    List<String> result = new ArrayList<>();
    int schemeEnd = location.indexOf("://");
    int floor = schemeEnd < 0 ? 0 : schemeEnd + 3;
    String current = location;
    while (true) {
      result.add(current);
      int slash = current.lastIndexOf('/');
      if (slash <= floor) {
        return result;
      }
      current = current.substring(0, slash);
    }
  }

  /**
   * The {@code LIKE … ESCAPE '\\'} pattern of every location strictly below the normalized {@code
   * location}: its {@code %}, {@code _} and {@code \\} match only themselves.
   */
  static String likeBelow(String location) {
    return location.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%";
  }
}
