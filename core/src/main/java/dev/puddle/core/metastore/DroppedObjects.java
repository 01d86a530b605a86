package dev.puddle.core.metastore;

import dev.puddle.core.events.CatalogEvents;
import dev.puddle.core.metastore.CatalogObject.Kind;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Soft-deleted tables and views (migration V10): kept by a drop within the warehouse's {@link
 * DropRetention}, listed and undropped through the management API, and removed by the purge sweep
 * once their purge is due, with their purge job recorded in the same transaction.
 *
 * <p>A kept object leaves {@code catalog_object} in the drop's transaction, so no Iceberg read or
 * write sees it from then on and its name is free for a new object. Its grants leave {@code
 * privilege_grant} with it: they would otherwise resolve to that name, and so to the new object.
 */
public final class DroppedObjects {
  private static final String COLUMNS =
      "id, namespace_levels, name, kind, location, metadata_location, dropped_at, dropped_by,"
          + " purge_requested, purge_due";

  private final Database database;

  public DroppedObjects(Database database) {
    this.database = database;
  }

  /**
   * Moves the object, locked by the drop's transaction, out of the catalog for {@code retention}:
   * its row with its grants; the row in {@code catalog_object} is then deleted.
   */
  static void keep(
      Connection connection,
      CatalogObject object,
      String droppedBy,
      boolean purgeRequested,
      Duration retention)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO dropped_object (id, warehouse_id, namespace_levels, name, kind, location,"
                + " owns_location, metadata_location, metadata, created_at, updated_at,"
                + " dropped_by, purge_requested, purge_due)"
                + " SELECT o.id, o.warehouse_id, n.levels, o.name, o.kind, o.location,"
                + " o.owns_location, o.metadata_location, o.metadata, o.created_at, o.updated_at,"
                + " ?, ?, now() + ? * interval '1 millisecond'"
                + " FROM catalog_object o JOIN namespace n ON n.id = o.namespace_id"
                + " WHERE o.id = ?")) {
      statement.setString(1, droppedBy);
      statement.setBoolean(2, purgeRequested);
      statement.setLong(3, retention.toMillis());
      statement.setObject(4, object.id());
      statement.executeUpdate();
    }
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO dropped_grant (object_id, realm_id, catalog_role_id, privilege)"
                + " SELECT object_id, realm_id, catalog_role_id, privilege FROM privilege_grant"
                + " WHERE object_id = ?")) {
      statement.setObject(1, object.id());
      statement.executeUpdate();
    }
  }

  /** The warehouse's dropped objects, most recently dropped first. */
  public Page<DroppedObject> list(Warehouse warehouse, String pageToken, int pageSize) {
    NewestFirst after = NewestFirst.after(pageToken);
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT "
                      + COLUMNS
                      + " FROM dropped_object WHERE warehouse_id = ?"
                      + " AND (?::timestamptz IS NULL OR (dropped_at, id) < (?, ?))"
                      + " ORDER BY dropped_at DESC, id DESC LIMIT ?")) {
            Timestamp droppedAt = after == null ? null : Timestamp.from(after.at());
            statement.setLong(1, warehouse.id());
            statement.setTimestamp(2, droppedAt);
            statement.setTimestamp(3, droppedAt);
            statement.setObject(4, after == null ? null : after.id());
            statement.setInt(5, pageSize + 1);
            List<DroppedObject> rows = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                rows.add(read(rs));
              }
            }
            return Page.of(rows, pageSize, o -> NewestFirst.key(o.droppedAt(), o.id()));
          }
        });
  }

  /**
   * Puts a dropped object back into the catalog, under {@code destination} or else the name it was
   * dropped with, as it was: same id, metadata location and JSON, files and grants. 404 if the
   * warehouse has no such dropped object (never had, undropped already, or purged) or no namespace
   * of the name; 409 if a table or view of that name exists.
   */
  public DroppedObject undrop(
      Warehouse warehouse, UUID id, TableIdentifier destination, Change change) {
    return database.transaction(
        change,
        (connection, events) -> {
          DroppedObject dropped;
          boolean ownsLocation;
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT "
                      + COLUMNS
                      + ", owns_location FROM dropped_object WHERE id = ? AND warehouse_id = ?"
                      + " FOR UPDATE")) {
            statement.setObject(1, id);
            statement.setLong(2, warehouse.id());
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                throw new NotFoundException("Dropped table or view does not exist: %s", id);
              }
              dropped = read(rs);
              ownsLocation = rs.getBoolean(11);
            }
          }
          TableIdentifier target = destination != null ? destination : dropped.identifier();
          OptionalLong namespaceId =
              Namespaces.id(connection, warehouse.id(), target.namespace(), false);
          if (namespaceId.isEmpty()) {
            throw new NoSuchNamespaceException(
                "Namespace does not exist: %s (create it, or undrop under another name)",
                target.namespace());
          }
          if (ownsLocation) {
            // dropped objects count in every overlap check, so this only confirms it
            Locations.lock(connection, warehouse.id());
            Locations.checkObjectLocation(connection, warehouse.id(), id, dropped.location());
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO catalog_object (id, warehouse_id, namespace_id, name, kind,"
                      + " location, owns_location, metadata_location, metadata, created_at,"
                      + " updated_at)"
                      + " SELECT id, warehouse_id, ?, ?, kind, location, owns_location,"
                      + " metadata_location, metadata, created_at, updated_at"
                      + " FROM dropped_object WHERE id = ?"
                      + " ON CONFLICT (namespace_id, name) DO NOTHING")) {
            statement.setLong(1, namespaceId.getAsLong());
            statement.setString(2, target.name());
            statement.setObject(3, id);
            if (statement.executeUpdate() == 0) {
              throw new AlreadyExistsException(
                  "Cannot undrop %s %s as %s: a table or view of that name exists",
                  dropped.kind().display().toLowerCase(Locale.ROOT), dropped.identifier(), target);
            }
          } catch (SQLException e) {
            if (SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION)) {
              // the namespace was dropped after the lookup
              throw new NoSuchNamespaceException(
                  "Namespace does not exist: %s", target.namespace());
            }
            throw e;
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO privilege_grant (realm_id, catalog_role_id, securable, object_id,"
                      + " privilege) SELECT realm_id, catalog_role_id, ?, object_id, privilege"
                      + " FROM dropped_grant WHERE object_id = ? ON CONFLICT DO NOTHING")) {
            statement.setString(1, dropped.kind().sql());
            statement.setObject(2, id);
            statement.executeUpdate();
          }
          try (PreparedStatement statement =
              connection.prepareStatement("DELETE FROM dropped_object WHERE id = ?")) {
            statement.setObject(1, id);
            statement.executeUpdate();
          }
          events.add(
              CatalogEvents.management(
                  warehouse.realm(),
                  warehouse,
                  "undrop-" + dropped.kind().sql(),
                  Map.of("id", id.toString(), "identifier", target.toString())));
          return new DroppedObject(
              dropped.id(),
              target,
              dropped.kind(),
              dropped.location(),
              dropped.metadataLocation(),
              dropped.droppedAt(),
              dropped.droppedBy(),
              dropped.purgeRequested(),
              dropped.purgeDue());
        });
  }

  /** What an expiry removed: how many objects, and the purge jobs it recorded, to be sent. */
  public record Expired(int removed, List<UUID> jobs) {}

  /**
   * Removes up to {@code limit} dropped objects whose purge is due, of any warehouse, and records
   * in the same transaction the purge job of each whose drop asked for one, for the caller to send
   * once committed. Rows an undrop holds are skipped, not waited for. Three statements however many
   * objects, so that a backlog fits a sweep's time in either metastore mode.
   */
  public Expired expire(int limit) {
    return database.transaction(
        connection -> {
          List<String> expired = new ArrayList<>();
          List<String> purged = new ArrayList<>();
          List<String> identifiers = new ArrayList<>();
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT id, namespace_levels, name, purge_requested FROM dropped_object"
                      + " WHERE purge_due <= now() ORDER BY purge_due LIMIT ?"
                      + " FOR UPDATE SKIP LOCKED")) {
            statement.setInt(1, limit);
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                String id = rs.getString(1);
                expired.add(id);
                if (rs.getBoolean(4)) {
                  purged.add(id);
                  // as a drop's purge job names its object
                  identifiers.add(
                      TableIdentifier.of(namespace(rs.getArray(2)), rs.getString(3)).toString());
                }
              }
            }
          }
          if (expired.isEmpty()) {
            return new Expired(0, List.of());
          }
          if (!purged.isEmpty()) {
            PurgeJobs.insertDue(connection, purged, identifiers);
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "DELETE FROM dropped_object WHERE id = ANY (?::text[]::uuid[])")) {
            statement.setArray(1, connection.createArrayOf("text", expired.toArray()));
            statement.executeUpdate();
          }
          return new Expired(expired.size(), purged.stream().map(UUID::fromString).toList());
        });
  }

  private static DroppedObject read(ResultSet rs) throws SQLException {
    return new DroppedObject(
        rs.getObject(1, UUID.class),
        TableIdentifier.of(namespace(rs.getArray(2)), rs.getString(3)),
        Kind.fromSql(rs.getString(4)),
        rs.getString(5),
        rs.getString(6),
        rs.getTimestamp(7).toInstant(),
        rs.getString(8),
        rs.getBoolean(9),
        rs.getTimestamp(10).toInstant());
  }

  private static Namespace namespace(Array levels) throws SQLException {
    return Namespace.of((String[]) levels.getArray());
  }
}
