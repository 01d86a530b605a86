package dev.puddle.core.metastore;

import dev.puddle.core.events.CatalogEvents;
import dev.puddle.core.metastore.CatalogObject.Kind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Function;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;

/**
 * Table and view rows. A table commit locks the table's row ({@link #swapLocked}, {@link #swapAll})
 * and moves its metadata pointer while holding the lock; a view commit swaps the pointer with a
 * compare-and-swap on the metadata location it read ({@link #swap}). The current metadata JSON is
 * stored beside the pointer, so loads read PostgreSQL only.
 */
public final class CatalogObjects {
  private final Database database;

  public CatalogObjects(Database database) {
    this.database = database;
  }

  /** The table or view of that name, whichever kind it is. */
  public Optional<CatalogObject> find(Warehouse warehouse, TableIdentifier identifier) {
    return find(warehouse, identifier, null);
  }

  /**
   * The table or view of that name, without its metadata JSON (null) if its metadata location is
   * {@code knownLocation}: the caller kept what it needs of that version, so the query does not
   * read what may be megabytes of metadata again.
   */
  public Optional<CatalogObject> find(
      Warehouse warehouse, TableIdentifier identifier, String knownLocation) {
    Lookup lookup = new Lookup(warehouse.id(), identifier, knownLocation);
    return database.read(connection -> find(connection, lookup));
  }

  /**
   * A read of the table or view of a name in a warehouse, its metadata JSON left out (null) if its
   * metadata location is {@code knownLocation}: what {@code catalog_object_named} (migration V6)
   * reads, and what the access check reads with the caller's access for a load or a commit ({@code
   * caller_access_and_object}, V7) to save a round trip.
   */
  public record Lookup(long warehouseId, TableIdentifier identifier, String knownLocation) {
    /** The columns of the object's row, as both functions and the locked read name them. */
    public static final ResultColumns COLUMNS =
        ResultColumns.of(
            "id", "kind", "location", "owns_location", "metadata_location", "metadata");

    /**
     * Sets the statement's parameters {@code first} to {@code first + 2} to the name looked up
     * (namespace levels, name) and the known location; the warehouse is the statement's to set.
     */
    public void bindName(Connection connection, PreparedStatement statement, int first)
        throws SQLException {
      statement.setArray(first, Namespaces.levels(connection, identifier.namespace()));
      statement.setString(first + 1, identifier.name());
      statement.setString(first + 2, knownLocation);
    }

    /** The object in the current row, whose object columns are {@code columns}. */
    public CatalogObject read(ResultSet rs, ResultColumns columns) throws SQLException {
      return new CatalogObject(
          rs.getObject(columns.index("id"), UUID.class),
          identifier,
          Kind.fromSql(rs.getString(columns.index("kind"))),
          rs.getString(columns.index("location")),
          rs.getBoolean(columns.index("owns_location")),
          rs.getString(columns.index("metadata_location")),
          rs.getString(columns.index("metadata")));
    }
  }

  /** The object of that name, locked for the transaction with {@code lock}. */
  static Optional<CatalogObject> find(
      Connection connection, Warehouse warehouse, TableIdentifier identifier, boolean lock)
      throws SQLException {
    Lookup lookup = new Lookup(warehouse.id(), identifier, null);
    return lock ? findLocked(connection, lookup, false) : find(connection, lookup);
  }

  /**
   * The object of the lookup, locked for the transaction ({@code SELECT … FOR UPDATE}), read by the
   * function {@code catalog_object_locked} (migration V18), whose plan is kept.
   *
   * <p>The same read as the function {@code catalog_object_named} (V6) and the object half of
   * {@code caller_access_and_object} (V7, V17), plus the row lock: the "row without metadata if
   * known" query exists three times, and a change to one is a change to all three, made by a new
   * migration that replaces the functions. This one cannot lock through V6's function, since {@code
   * FOR UPDATE} locks rows of tables, not of a function's result; V7 writes the query out rather
   * than calling V6's function because a nested call costs as much as the statement; and applied
   * migrations are never edited, so deriving all three from one definition would take a migration
   * replacing the functions for no change in behaviour. {@code CatalogObjectsTest} checks that the
   * three read the same.
   */
  private static Optional<CatalogObject> findLocked(
      Connection connection, Lookup lookup, boolean onlyKnown) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT * FROM catalog_object_locked(?, ?, ?, ?, ?)")) {
      statement.setLong(1, lookup.warehouseId());
      lookup.bindName(connection, statement, 2);
      statement.setBoolean(5, onlyKnown);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? Optional.of(lookup.read(rs, Lookup.COLUMNS)) : Optional.empty();
      }
    }
  }

  private static Optional<CatalogObject> find(Connection connection, Lookup lookup)
      throws SQLException {
    // a function (migration V6): its plan is kept, this read comes with nearly every request
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT * FROM catalog_object_named(?, ?, ?, ?)")) {
      statement.setLong(1, lookup.warehouseId());
      lookup.bindName(connection, statement, 2);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? Optional.of(lookup.read(rs, Lookup.COLUMNS)) : Optional.empty();
      }
    }
  }

  /** Whether a table or view of that name exists; reads no metadata. */
  public boolean exists(Warehouse warehouse, TableIdentifier identifier, Kind kind) {
    return database.read(
        connection -> id(connection, warehouse.id(), identifier, kind).isPresent());
  }

  /** The id of the table or view of that name and kind, if there is one; reads no metadata. */
  public static Optional<UUID> id(
      Connection connection, long warehouseId, TableIdentifier identifier, Kind kind)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT o.id FROM catalog_object o JOIN namespace n ON n.id = o.namespace_id"
                + " WHERE n.warehouse_id = ? AND n.levels = ? AND o.name = ? AND o.kind = ?")) {
      statement.setLong(1, warehouseId);
      statement.setArray(2, Namespaces.levels(connection, identifier.namespace()));
      statement.setString(3, identifier.name());
      statement.setString(4, kind.sql());
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? Optional.of(rs.getObject(1, UUID.class)) : Optional.empty();
      }
    }
  }

  /**
   * Inserts a new object, recording {@code event}. An object that owns its location is checked for
   * overlaps under the warehouse's location lock.
   */
  public void create(Warehouse warehouse, CatalogObject object, ChangeEvent event, Change change) {
    create(warehouse, object, event, () -> {}, change);
  }

  /**
   * {@link #create(Warehouse, CatalogObject, ChangeEvent, Change)}, running {@code beforeCommit}
   * after the statements and before COMMIT: a create waits there for its metadata file's upload.
   */
  public void create(
      Warehouse warehouse,
      CatalogObject object,
      ChangeEvent event,
      Runnable beforeCommit,
      Change change) {
    database.transaction(
        change,
        (connection, events) -> {
          insert(connection, warehouse, object);
          events.add(event);
          madeCurrent(
              events,
              change,
              new CommittedVersion(
                  object.identifier(),
                  object.kind(),
                  object.metadataLocation(),
                  object.metadataJson()));
          beforeCommit.run();
          return null;
        });
  }

  /**
   * Inserts the object's row, or throws: no such namespace, the name taken, or (for an object that
   * owns its location) the location overlapping another. One statement, a call of {@code
   * create_catalog_object} (V18): for an owned location, the warehouse's location lock, then in
   * statements that begin once it is held (so they see every create that took the lock before) the
   * overlap checks and the insert; without one, the insert alone.
   */
  static void insert(Connection connection, Warehouse warehouse, CatalogObject object)
      throws SQLException {
    TableIdentifier identifier = object.identifier();
    String location = Locations.normalize(object.location());
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT * FROM create_catalog_object(?, ?, ?, ?, ?::uuid, ?, ?, ?, ?, ?, ?, ?)")) {
      int p = 1;
      statement.setLong(p++, warehouse.id());
      statement.setArray(p++, Namespaces.levels(connection, identifier.namespace()));
      p = Locations.bindLockKey(statement, p, warehouse.id());
      statement.setObject(p++, object.id());
      statement.setString(p++, identifier.name());
      statement.setString(p++, object.kind().sql());
      statement.setString(p++, location);
      statement.setBoolean(p++, object.ownsLocation());
      statement.setString(p++, object.metadataLocation());
      statement.setString(p++, object.metadataJson());
      statement.setArray(p, Locations.ancestorsArray(connection, location));
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        rs.getLong(1);
        if (rs.wasNull()) {
          throw noSuchNamespace(identifier);
        }
        int what = rs.getInt(2);
        if (!rs.wasNull()) {
          throw Locations.objectLocationConflict(location, what, rs.getString(3));
        }
        if (!rs.getBoolean(4)) {
          Kind existing =
              find(connection, warehouse, identifier, false).map(CatalogObject::kind).orElse(null);
          throw alreadyExists(object.kind(), existing, identifier);
        }
      }
    } catch (SQLException e) {
      if (SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION)) {
        // the namespace was dropped after the function read it
        throw noSuchNamespace(identifier);
      }
      throw e;
    }
  }

  private static NoSuchNamespaceException noSuchNamespace(TableIdentifier identifier) {
    return new NoSuchNamespaceException("Namespace does not exist: %s", identifier.namespace());
  }

  static AlreadyExistsException alreadyExists(
      Kind creating, Kind existing, TableIdentifier identifier) {
    if (existing != null && existing != creating) {
      return new AlreadyExistsException(
          "%s with same name already exists: %s", existing.display(), identifier);
    }
    return new AlreadyExistsException("%s already exists: %s", creating.display(), identifier);
  }

  /**
   * Swaps the metadata pointer if it still is the one {@code swap.current()} was read with. Returns
   * false when another commit got there first (or the object is gone), in which case nothing
   * changed.
   */
  public boolean swap(Warehouse warehouse, Swap swap, Change change) {
    // a transaction even for one UPDATE: its statement timeout is cancelled by the server at the
    // request's deadline, so a commit never lands after its response said it failed, and an
    // idempotency key is claimed in the same transaction
    return database.transaction(
        change,
        (connection, events) -> {
          boolean swapped = swap(connection, warehouse, swap);
          if (swapped) {
            events.add(swap.event());
          }
          return swapped;
        });
  }

  /**
   * Locks the table's row ({@code SELECT … FOR UPDATE}) if its metadata location is still {@code
   * knownLocation}, the version the caller holds (any version if null), and, in the same
   * transaction, makes the swap {@code changes} computes from the locked row (none if it gives
   * null) and records its event, runs {@code beforeCommit}, and commits. While the row is locked no
   * other commit moves its pointer: concurrent commits to the table wait for one another here
   * instead of racing to the compare-and-swap. Returns false, having changed and held nothing, if
   * the row had moved from {@code knownLocation} (or is gone) when the lock was free: a commit that
   * waited for another learns it at once, and reads and checks the new version without holding the
   * row, so that the commits queued behind one that lands do not each hold it in turn.
   */
  public boolean swapLocked(
      Warehouse warehouse,
      TableIdentifier table,
      String knownLocation,
      Function<CatalogObject, Swap> changes,
      Runnable beforeCommit,
      Change change) {
    Lookup lookup = new Lookup(warehouse.id(), table, knownLocation);
    try {
      database.transaction(
          change,
          (connection, events) -> {
            CatalogObject locked =
                findLocked(connection, lookup, knownLocation != null)
                    .filter(o -> o.kind() == Kind.TABLE)
                    .orElseThrow(
                        () ->
                            knownLocation != null ? new Moved() : doesNotExist(Kind.TABLE, table));
            Swap swap = changes.apply(locked);
            if (swap != null) {
              swapHeld(connection, warehouse, swap);
              events.add(swap.event());
              madeCurrent(
                  events,
                  change,
                  new CommittedVersion(
                      table, Kind.TABLE, swap.metadataLocation(), swap.metadataJson()));
            }
            beforeCommit.run();
            return null;
          });
      return true;
    } catch (Moved e) {
      return false;
    }
  }

  /**
   * Notes that the transaction makes {@code version} current, and has the change's mark build what
   * it stores for it now, before the transaction waits for the version's metadata file: that work
   * then runs while the file uploads instead of after it.
   */
  private static void madeCurrent(ChangeEvents events, Change change, CommittedVersion version) {
    events.madeCurrent(version);
    change.mark().prepare(version);
  }

  /**
   * The row was no longer at the version known: the transaction rolls back, having done nothing.
   */
  private static final class Moved extends RuntimeException {
    Moved() {
      super(null, null, false, false);
    }
  }

  /** Swaps the pointer of a row this transaction locked, which therefore cannot have moved. */
  private static void swapHeld(Connection connection, Warehouse warehouse, Swap swap)
      throws SQLException {
    if (!swap(connection, warehouse, swap)) {
      // cannot happen while we hold the row lock; fail the whole transaction if it does
      throw new CommitFailedException(
          "Cannot commit %s: metadata changed concurrently", swap.current().identifier());
    }
  }

  private static boolean movesOwnedLocation(CatalogObject current, String newLocation) {
    return current.ownsLocation() && !Locations.normalize(newLocation).equals(current.location());
  }

  static boolean swap(Connection connection, Warehouse warehouse, Swap swap) throws SQLException {
    CatalogObject current = swap.current();
    String location = Locations.normalize(swap.location());
    if (movesOwnedLocation(current, location)) {
      Locations.lock(connection, warehouse.id());
      Locations.checkObjectLocation(connection, warehouse.id(), current.id(), location);
    }
    try (PreparedStatement statement =
        connection.prepareStatement(
            "UPDATE catalog_object SET metadata_location = ?, metadata = ?, location = ?,"
                + " updated_at = now() WHERE id = ? AND metadata_location = ?")) {
      statement.setString(1, swap.metadataLocation());
      statement.setString(2, swap.metadataJson());
      statement.setString(3, location);
      statement.setObject(4, current.id());
      statement.setString(5, current.metadataLocation());
      return statement.executeUpdate() == 1;
    }
  }

  /**
   * A pointer swap: from the metadata {@code current} was read with to the new metadata, and the
   * event it records once made.
   */
  public record Swap(
      CatalogObject current,
      String location,
      String metadataLocation,
      String metadataJson,
      ChangeEvent event) {}

  /** Computes the swaps of a transaction from the rows it locked. */
  @FunctionalInterface
  public interface LockedChanges {
    List<Swap> apply(List<CatalogObject> locked);
  }

  /**
   * Locks the rows of the given tables with {@code SELECT ... FOR UPDATE}, in one fixed order so
   * that two transactions cannot deadlock, computes the swaps from them and applies every swap in
   * the same database transaction: all land or none.
   */
  public void swapAll(
      Warehouse warehouse, List<TableIdentifier> tables, LockedChanges changes, Change change) {
    List<TableIdentifier> ordered =
        tables.stream().distinct().sorted(CatalogObjects::compare).toList();
    database.transaction(
        change,
        (connection, events) -> {
          List<CatalogObject> locked = new ArrayList<>();
          for (TableIdentifier identifier : ordered) {
            locked.add(
                find(connection, warehouse, identifier, true)
                    .filter(o -> o.kind() == Kind.TABLE)
                    .orElseThrow(() -> doesNotExist(Kind.TABLE, identifier)));
          }
          for (Swap swap : changes.apply(locked)) {
            swapHeld(connection, warehouse, swap);
            events.add(swap.event());
          }
          return null;
        });
  }

  private static int compare(TableIdentifier a, TableIdentifier b) {
    int byNamespace = Arrays.compare(a.namespace().levels(), b.namespace().levels());
    return byNamespace != 0 ? byNamespace : a.name().compareTo(b.name());
  }

  /**
   * Points an existing table at metadata registered from elsewhere ({@code overwrite=true}). The
   * table then owns no location: its files were placed by someone else.
   */
  public void overwriteRegistered(
      Warehouse warehouse,
      TableIdentifier identifier,
      String location,
      String metadataLocation,
      String metadataJson,
      ChangeEvent event,
      Change change) {
    database.transaction(
        change,
        (connection, events) -> {
          CatalogObject current =
              find(connection, warehouse, identifier, true)
                  .filter(o -> o.kind() == Kind.TABLE)
                  .orElseThrow(() -> doesNotExist(Kind.TABLE, identifier));
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE catalog_object SET metadata_location = ?, metadata = ?, location = ?,"
                      + " owns_location = false, updated_at = now() WHERE id = ?")) {
            statement.setString(1, metadataLocation);
            statement.setString(2, metadataJson);
            statement.setString(3, Locations.normalize(location));
            statement.setObject(4, current.id());
            statement.executeUpdate();
          }
          events.add(event);
          return null;
        });
  }

  /**
   * Renames a table or view, possibly into another namespace, with the checks and messages of
   * Iceberg's reference catalogs.
   */
  public void rename(
      Warehouse warehouse, TableIdentifier from, TableIdentifier to, Kind kind, Change change) {
    database.transaction(
        change,
        (connection, events) -> {
          CatalogObject source =
              find(connection, warehouse, from, true)
                  .filter(o -> o.kind() == kind)
                  .orElseThrow(() -> doesNotExist(kind, from));
          OptionalLong namespaceId =
              Namespaces.id(connection, warehouse.id(), to.namespace(), false);
          if (namespaceId.isEmpty()) {
            throw new NoSuchNamespaceException("Namespace does not exist: %s", to.namespace());
          }
          Optional<CatalogObject> target = find(connection, warehouse, to, false);
          if (target.isPresent()) {
            throw renameTargetExists(from, to, target.get().kind());
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE catalog_object SET namespace_id = ?, name = ?, updated_at = now()"
                      + " WHERE id = ?")) {
            statement.setLong(1, namespaceId.getAsLong());
            statement.setString(2, to.name());
            statement.setObject(3, source.id());
            statement.executeUpdate();
            events.add(
                CatalogEvents.rename(
                    warehouse, kind, from, to, CatalogEvents.uuidOf(kind, source.metadataJson())));
          } catch (SQLException e) {
            if (SqlErrors.is(e, SqlErrors.UNIQUE_VIOLATION)) {
              Kind existing =
                  find(connection, warehouse, to, false).map(CatalogObject::kind).orElse(kind);
              throw renameTargetExists(from, to, existing);
            }
            if (SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION)) {
              throw new NoSuchNamespaceException("Namespace does not exist: %s", to.namespace());
            }
            throw e;
          }
          return null;
        });
  }

  private static AlreadyExistsException renameTargetExists(
      TableIdentifier from, TableIdentifier to, Kind existing) {
    return new AlreadyExistsException(
        "Cannot rename %s to %s. %s already exists", from, to, existing.display());
  }

  /** What a drop did: the object's id, and whether its purge job was recorded for sending now. */
  public record Dropped(UUID id, boolean purgeQueued) {}

  /**
   * Drops a table or view; empty if none of that kind exists. Within the warehouse's {@link
   * DropRetention} (read in the drop's transaction, not from a cache) the object is kept for undrop
   * ({@link DroppedObjects}); otherwise it is gone and, with {@code purge}, its purge job is
   * recorded in the same transaction, with everything the purge will need.
   *
   * @param change the request's change: its principal is the one the list of dropped objects names
   */
  public Optional<Dropped> drop(
      Warehouse warehouse, TableIdentifier identifier, Kind kind, boolean purge, Change change) {
    return database.transaction(
        change,
        (connection, events) -> {
          Optional<CatalogObject> found = find(connection, warehouse, identifier, true);
          if (found.isEmpty() || found.get().kind() != kind) {
            return Optional.empty();
          }
          CatalogObject object = found.get();
          DropRetention retention =
              DropRetention.of(Warehouses.properties(connection, warehouse.id()));
          boolean kept = retention.keeps(purge);
          if (kept) {
            DroppedObjects.keep(
                connection, object, change.principal(), purge, retention.retention());
          }
          try (PreparedStatement statement =
              connection.prepareStatement("DELETE FROM catalog_object WHERE id = ?")) {
            statement.setObject(1, object.id());
            statement.executeUpdate();
          }
          if (purge && !kept) {
            PurgeJobs.insert(connection, warehouse, object);
          }
          events.add(
              CatalogEvents.drop(
                  warehouse,
                  kind,
                  identifier,
                  CatalogEvents.uuidOf(kind, object.metadataJson()),
                  purge));
          return Optional.of(new Dropped(object.id(), purge && !kept));
        });
  }

  /**
   * Lists the tables or views of a namespace by name. The namespace's id is looked up in the
   * listing's own statement, which saves a round trip per page; only an empty page asks whether the
   * namespace exists.
   */
  public Page<TableIdentifier> list(
      Warehouse warehouse, Namespace namespace, Kind kind, String pageToken, int pageSize) {
    return database.read(
        connection -> {
          String after = Page.keyAfter(pageToken);
          // two statements, not one with "? IS NULL OR": a generic plan of that one could not
          // start its index scan after the token
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT name FROM catalog_object WHERE namespace_id ="
                      + " (SELECT id FROM namespace WHERE warehouse_id = ? AND levels = ?)"
                      + " AND kind = ?"
                      + (after == null ? "" : " AND name > ?")
                      + " ORDER BY name LIMIT ?")) {
            int p = 1;
            statement.setLong(p++, warehouse.id());
            statement.setArray(p++, Namespaces.levels(connection, namespace));
            statement.setString(p++, kind.sql());
            if (after != null) {
              statement.setString(p++, after);
            }
            statement.setInt(p, pageSize + 1);
            List<TableIdentifier> result = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                result.add(TableIdentifier.of(namespace, rs.getString(1)));
              }
            }
            if (result.isEmpty()
                && Namespaces.id(connection, warehouse.id(), namespace, false).isEmpty()) {
              throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
            }
            return Page.of(result, pageSize, TableIdentifier::name);
          }
        });
  }

  /** The 404 of a table or view that does not exist, as Iceberg's catalogs word it. */
  public static RuntimeException doesNotExist(Kind kind, TableIdentifier identifier) {
    return kind == Kind.TABLE
        ? new NoSuchTableException("Table does not exist: %s", identifier)
        : new NoSuchViewException("View does not exist: %s", identifier);
  }
}
