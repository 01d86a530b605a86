package dev.puddle.core.metastore;

import dev.puddle.core.events.CatalogObjectType;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;

/**
 * The change-event feed in PostgreSQL (migration V11): events written in their change's own
 * transaction, read back a page at a time by feed, relayed from here, and removed past their
 * warehouse's retention.
 *
 * <p>An event's id is its position in its feed. A writer takes its feed's transaction-scoped
 * advisory lock in the statement that inserts its events and holds it until COMMIT, so ids of one
 * feed are handed out in commit order: a reader that has seen id n will never later see a smaller
 * one appear. The lock is held only from that statement, the transaction's last, to COMMIT; the
 * object's own row lock already orders an object's changes, so its events follow its metadata log.
 */
public final class EventStore {
  private static final int LOCK_CLASS = 0x65766e74; // "evnt"
  private static final int REALM_LOCK_CLASS = 0x6576726d; // "evrm"

  private final Database database;

  public EventStore(Database database) {
    this.database = database;
  }

  /**
   * Writes the events a transaction recorded, in one statement that first takes the feed's lock;
   * nothing when there are none. Called by {@link Database#transaction(Change,
   * Database.ChangeWork)} before COMMIT, and by nothing else.
   *
   * <p>The statement is a call of {@code record_catalog_events} (V20) with the events as arrays:
   * the function's statements keep their plans on the server connection, where a statement sent as
   * text is parsed and planned on every write (Puddle never prepares on the server), and its text
   * stays the same however many events there are.
   */
  static void insert(Connection connection, Change change, List<ChangeEvent> events)
      throws SQLException {
    if (events.isEmpty()) {
      return;
    }
    // one feed per transaction in practice; should one write to two, both locks are taken, in
    // order, so two such writers cannot deadlock
    TreeSet<Long> feeds = new TreeSet<>();
    String realmFeed = null;
    for (ChangeEvent event : events) {
      if (event.warehouseId() != null) {
        feeds.add(event.warehouseId());
      } else {
        realmFeed = event.realm();
      }
    }
    List<Object> lockClasses = new ArrayList<>();
    List<Object> lockKeys = new ArrayList<>();
    for (long feed : feeds) {
      lockClasses.add(LOCK_CLASS);
      // two int halves, as the location lock's: ids past 2^31 may share a key, which only makes
      // the lock coarser
      lockKeys.add((int) feed);
    }
    if (realmFeed != null) {
      lockClasses.add(REALM_LOCK_CLASS);
      lockKeys.add(realmFeed.hashCode());
    }
    int count = events.size();
    Object[] ids = new Object[count];
    Object[] realms = new Object[count];
    Object[] warehouses = new Object[count];
    Object[] operationTypes = new Object[count];
    Object[] customTypes = new Object[count];
    Object[] objectTypes = new Object[count];
    Object[] namespaceSizes = new Object[count];
    List<Object> namespaceLevels = new ArrayList<>();
    Object[] names = new Object[count];
    Object[] uuids = new Object[count];
    Object[] operations = new Object[count];
    for (int i = 0; i < count; i++) {
      ChangeEvent event = events.get(i);
      ids[i] = UUID.randomUUID().toString();
      realms[i] = event.realm();
      warehouses[i] = event.warehouseId();
      operationTypes[i] = event.operationType().type();
      customTypes[i] = event.customType();
      objectTypes[i] = event.objectType() == null ? null : event.objectType().type();
      if (event.namespace() != null) {
        namespaceSizes[i] = event.namespace().length();
        namespaceLevels.addAll(List.of(event.namespace().levels()));
      }
      names[i] = event.name();
      uuids[i] = event.uuid();
      operations[i] = event.operationJson();
    }
    String requestId =
        change.requestId() != null ? change.requestId() : UUID.randomUUID().toString();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT record_catalog_events(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      int p = 1;
      statement.setArray(p++, connection.createArrayOf("integer", lockClasses.toArray()));
      statement.setArray(p++, connection.createArrayOf("integer", lockKeys.toArray()));
      statement.setString(p++, requestId);
      statement.setString(p++, change.principal());
      statement.setString(p++, change.realm());
      statement.setArray(p++, connection.createArrayOf("uuid", ids));
      statement.setArray(p++, connection.createArrayOf("text", realms));
      statement.setArray(p++, connection.createArrayOf("bigint", warehouses));
      statement.setArray(p++, connection.createArrayOf("text", operationTypes));
      statement.setArray(p++, connection.createArrayOf("text", customTypes));
      statement.setArray(p++, connection.createArrayOf("text", objectTypes));
      statement.setArray(p++, connection.createArrayOf("integer", namespaceSizes));
      statement.setArray(p++, connection.createArrayOf("text", namespaceLevels.toArray()));
      statement.setArray(p++, connection.createArrayOf("text", names));
      statement.setArray(p++, connection.createArrayOf("text", uuids));
      statement.setArray(p, connection.createArrayOf("text", operations));
      statement.execute();
    }
  }

  /** The columns a read of the feed returns, in {@link #read}'s order. */
  private static final String COLUMNS =
      "id, event_id, warehouse_id, request_id, request_event_count,"
          + " (extract(epoch FROM created_at) * 1000)::bigint AS timestamp_ms, actor_principal,"
          + " actor_realm, object_type, object_namespace, object_name, operation::text, realm_id";

  /** The conditions of an {@link EventFilter}, for one branch of the feed's query. */
  private static final String FILTER =
      " AND (?::bigint IS NULL OR created_at >= to_timestamp(?::bigint / 1000.0))"
          + " AND (?::text[] IS NULL OR operation_type = ANY (?::text[])"
          + " OR custom_type = ANY (?::text[]))"
          + " AND (?::text[] IS NULL OR object_type = ANY (?::text[]))"
          + " AND (?::text[] IS NULL"
          + " OR array_to_string(object_namespace || object_name, chr(31)) = ANY (?::text[]))"
          + " AND (?::text[] IS NULL OR object_uuid = ANY (?::text[]))";

  /**
   * A page of a warehouse's feed after position {@code afterId}, oldest first, as many as {@code
   * limit} of those {@code filter} keeps, with the realm-wide management events when {@code
   * withRealmEvents}. One statement: two index range scans in id order (the warehouse's feed and
   * the realm's), merged.
   */
  public List<StoredEvent> page(
      Warehouse warehouse, boolean withRealmEvents, EventFilter filter, long afterId, int limit) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT * FROM ((SELECT "
                      + COLUMNS
                      + " FROM catalog_event WHERE warehouse_id = ? AND id > ?"
                      + FILTER
                      + " ORDER BY id LIMIT ?) UNION ALL (SELECT "
                      + COLUMNS
                      + " FROM catalog_event WHERE warehouse_id IS NULL AND realm_id = ?"
                      + " AND ?::boolean AND id > ?"
                      + FILTER
                      + " ORDER BY id LIMIT ?)) e ORDER BY id LIMIT ?")) {
            int p = 1;
            statement.setLong(p++, warehouse.id());
            statement.setLong(p++, afterId);
            p = bindFilter(connection, statement, p, filter);
            statement.setInt(p++, limit);
            statement.setString(p++, warehouse.realm());
            statement.setBoolean(p++, withRealmEvents);
            statement.setLong(p++, afterId);
            p = bindFilter(connection, statement, p, filter);
            statement.setInt(p++, limit);
            statement.setInt(p, limit);
            return readAll(statement);
          }
        });
  }

  private static int bindFilter(
      Connection connection, PreparedStatement statement, int first, EventFilter filter)
      throws SQLException {
    int p = first;
    for (int i = 0; i < 2; i++) {
      if (filter.sinceTimestampMs() == null) {
        statement.setNull(p++, Types.BIGINT);
      } else {
        statement.setLong(p++, filter.sinceTimestampMs());
      }
    }
    Array types = array(connection, filter.operationTypes());
    for (int i = 0; i < 3; i++) {
      statement.setArray(p++, types);
    }
    Array objectTypes = array(connection, filter.objectTypes());
    statement.setArray(p++, objectTypes);
    statement.setArray(p++, objectTypes);
    Array names =
        array(
            connection,
            filter.names() == null
                ? null
                : filter.names().stream().map(levels -> String.join("\u001f", levels)).toList());
    statement.setArray(p++, names);
    statement.setArray(p++, names);
    Array uuids = array(connection, filter.uuids());
    statement.setArray(p++, uuids);
    statement.setArray(p++, uuids);
    return p;
  }

  private static Array array(Connection connection, List<String> values) throws SQLException {
    return values == null ? null : connection.createArrayOf("text", values.toArray());
  }

  private static List<StoredEvent> readAll(PreparedStatement statement) throws SQLException {
    List<StoredEvent> events = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        events.add(read(rs));
      }
    }
    return events;
  }

  private static StoredEvent read(ResultSet rs) throws SQLException {
    long warehouseId = rs.getLong(3);
    Long warehouse = rs.wasNull() ? null : warehouseId;
    String objectType = rs.getString(9);
    Array levels = rs.getArray(10);
    return new StoredEvent(
        rs.getLong(1),
        rs.getString(2),
        rs.getString(13),
        warehouse,
        rs.getString(4),
        rs.getInt(5),
        rs.getLong(6),
        rs.getString(7),
        rs.getString(8),
        objectType == null ? null : CatalogObjectType.fromType(objectType).orElseThrow(),
        levels == null ? null : Namespace.of((String[]) levels.getArray()),
        rs.getString(11),
        rs.getString(12));
  }

  /**
   * Deletes, a batch at a time, events older than their warehouse's retention ({@code
   * retention-days} property {@value #RETENTION_PROPERTY}, else {@code defaultDays}; realm-wide
   * events and those of deleted warehouses keep the default). Returns how many it deleted.
   */
  public int deleteExpired(int defaultDays, int batch) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "DELETE FROM catalog_event WHERE id IN (SELECT e.id FROM catalog_event e"
                      + " LEFT JOIN warehouse w ON w.id = e.warehouse_id"
                      + " WHERE e.created_at < now() - make_interval(days => CASE"
                      + " WHEN w.properties ->> ? ~ '^[0-9]{1,6}$'"
                      + " THEN (w.properties ->> ?)::integer ELSE ? END)"
                      + " ORDER BY e.created_at LIMIT ?)")) {
            statement.setString(1, RETENTION_PROPERTY);
            statement.setString(2, RETENTION_PROPERTY);
            statement.setInt(3, defaultDays);
            statement.setInt(4, batch);
            return statement.executeUpdate();
          }
        });
  }

  /** The warehouse property that sets how many days its events are kept. */
  public static final String RETENTION_PROPERTY = "puddle.events.retention-days";

  /**
   * Claims the relay for {@code claim} until {@code lease} from now: true if no other invocation
   * holds it (or its claim ran out, or it is this one's already). One relay runs at a time, so the
   * events go out in commit order.
   */
  public boolean claimRelay(UUID claim, Duration lease) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE event_relay SET claim_id = ?,"
                      + " claimed_until = now() + make_interval(secs => ?), last_run_at = now()"
                      + " WHERE id = 1 AND (claim_id IS NULL OR claimed_until < now()"
                      + " OR claim_id = ?)")) {
            statement.setObject(1, claim);
            statement.setDouble(2, lease.toMillis() / 1000.0);
            statement.setObject(3, claim);
            return statement.executeUpdate() == 1;
          }
        });
  }

  /** Lets go of the relay's claim, if {@code claim} still holds it. */
  public void releaseRelay(UUID claim) {
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE event_relay SET claim_id = NULL, claimed_until = NULL"
                      + " WHERE id = 1 AND claim_id = ?")) {
            statement.setObject(1, claim);
            return statement.executeUpdate();
          }
        });
  }

  /** The oldest events still to be published, in commit order. */
  public List<StoredEvent> unpublished(int limit) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT "
                      + COLUMNS
                      + " FROM catalog_event WHERE published_at IS NULL ORDER BY id LIMIT ?")) {
            statement.setInt(1, limit);
            return readAll(statement);
          }
        });
  }

  /**
   * Marks events published, if {@code claim} still holds the relay: false, marking nothing, if a
   * later invocation took it over (its claim ran out), which then publishes them itself.
   */
  public boolean markPublished(UUID claim, List<Long> ids) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "WITH held AS (SELECT 1 FROM event_relay WHERE id = 1 AND claim_id = ?"
                      + " AND claimed_until > now())"
                      + " UPDATE catalog_event SET published_at = now()"
                      + " WHERE id = ANY (?::bigint[]) AND EXISTS (SELECT 1 FROM held)")) {
            statement.setObject(1, claim);
            statement.setArray(2, connection.createArrayOf("bigint", ids.toArray()));
            return statement.executeUpdate() > 0 || ids.isEmpty();
          }
        });
  }

  /** Whether some event has waited longer than {@code grace} to be published: a lost nudge. */
  public boolean hasUnpublishedOlderThan(Duration grace) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT EXISTS (SELECT 1 FROM catalog_event WHERE published_at IS NULL"
                      + " AND id = (SELECT min(id) FROM catalog_event WHERE published_at IS NULL)"
                      + " AND created_at < now() - make_interval(secs => ?))")) {
            statement.setDouble(1, grace.toMillis() / 1000.0);
            try (ResultSet rs = statement.executeQuery()) {
              rs.next();
              return rs.getBoolean(1);
            }
          }
        });
  }
}
