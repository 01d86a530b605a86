package dev.puddle.core.metastore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Idempotency keys in PostgreSQL. A request claims its key for one attempt, with a lease; each
 * transaction of the attempt that changes something records, in the same transaction, that the key
 * took effect ({@link #markApplied}); the attempt then stores its final response. A key whose lease
 * ran out before anything was applied can be claimed again; one older than its lifetime counts as
 * new. Claims also delete a few long-expired keys, so the table stays small.
 */
public final class IdempotencyKeys {
  /** A key's row as another attempt left it. */
  public record Existing(
      byte[] requestHash,
      boolean applied,
      boolean leaseRunning,
      Integer status,
      String headers,
      byte[] body) {}

  /** Long-expired keys deleted per claim. */
  private static final int CLEANUP_BATCH = 20;

  private final Database database;

  public IdempotencyKeys(Database database) {
    this.database = database;
  }

  /**
   * Claims a key for {@code attempt}: true if the attempt now owns it (a new key, an expired one,
   * or one whose earlier attempt for the same request died before applying anything).
   */
  public boolean claim(
      String realm,
      UUID key,
      byte[] requestHash,
      String operation,
      UUID attempt,
      Duration lease,
      Duration lifetime) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "WITH expired AS (DELETE FROM idempotency_key WHERE ctid = ANY (ARRAY("
                      + " SELECT ctid FROM idempotency_key"
                      + " WHERE created_at < now() - make_interval(secs => ?) - interval '1 hour'"
                      + " AND NOT (realm_id = ? AND key = ?)"
                      + " ORDER BY created_at LIMIT "
                      + CLEANUP_BATCH
                      + " FOR UPDATE SKIP LOCKED)))"
                      + " INSERT INTO idempotency_key AS k"
                      + " (realm_id, key, request_hash, operation, attempt, lease_until)"
                      + " VALUES (?, ?, ?, ?, ?, now() + make_interval(secs => ?))"
                      + " ON CONFLICT (realm_id, key) DO UPDATE SET"
                      + " request_hash = EXCLUDED.request_hash, operation = EXCLUDED.operation,"
                      + " attempt = EXCLUDED.attempt, lease_until = EXCLUDED.lease_until,"
                      + " applied = false, status = NULL, headers = NULL, body = NULL,"
                      + " created_at = CASE WHEN k.created_at < now() - make_interval(secs => ?)"
                      + " THEN now() ELSE k.created_at END"
                      + " WHERE k.created_at < now() - make_interval(secs => ?)"
                      + " OR (k.status IS NULL AND NOT k.applied AND k.lease_until < now()"
                      + " AND k.request_hash = EXCLUDED.request_hash)"
                      + " RETURNING k.attempt")) {
            double lifetimeSeconds = lifetime.toMillis() / 1000.0;
            statement.setDouble(1, lifetimeSeconds);
            statement.setString(2, realm);
            statement.setObject(3, key);
            statement.setString(4, realm);
            statement.setObject(5, key);
            statement.setBytes(6, requestHash);
            statement.setString(7, operation);
            statement.setObject(8, attempt);
            statement.setDouble(9, lease.toMillis() / 1000.0);
            statement.setDouble(10, lifetimeSeconds);
            statement.setDouble(11, lifetimeSeconds);
            try (ResultSet rs = statement.executeQuery()) {
              return rs.next() && attempt.equals(rs.getObject(1, UUID.class));
            }
          }
        });
  }

  /** The key's row, if it exists. */
  public Optional<Existing> find(String realm, UUID key) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT request_hash, applied, lease_until > now(), status, headers, body"
                      + " FROM idempotency_key WHERE realm_id = ? AND key = ?")) {
            statement.setString(1, realm);
            statement.setObject(2, key);
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                return Optional.empty();
              }
              int code = rs.getInt(4);
              Integer status = rs.wasNull() ? null : code;
              return Optional.of(
                  new Existing(
                      rs.getBytes(1),
                      rs.getBoolean(2),
                      rs.getBoolean(3),
                      status,
                      rs.getString(5),
                      rs.getBytes(6)));
            }
          }
        });
  }

  /**
   * Inside a transaction of the attempt, just before it commits: records that the key took effect
   * if the transaction changed anything (it has a transaction id). If another attempt has taken the
   * key over meanwhile, the transaction must not commit: this throws.
   */
  public static void markApplied(Connection connection, String realm, UUID key, UUID attempt)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "WITH wrote AS MATERIALIZED (SELECT txid_current_if_assigned() IS NOT NULL AS yes),"
                + " marked AS (UPDATE idempotency_key SET applied = true"
                + " WHERE realm_id = ? AND key = ? AND attempt = ? AND (SELECT yes FROM wrote)"
                + " RETURNING 1)"
                + " SELECT (SELECT yes FROM wrote), (SELECT count(*) FROM marked)")) {
      statement.setString(1, realm);
      statement.setObject(2, key);
      statement.setObject(3, attempt);
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        if (rs.getBoolean(1) && rs.getLong(2) == 0) {
          throw new ServiceUnavailableException(
              "Idempotency key %s was taken over by another attempt; nothing was committed", key);
        }
      }
    }
  }

  /** Stores the final response of the owning attempt. */
  public void finish(
      String realm, UUID key, UUID attempt, int status, String headers, byte[] body) {
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE idempotency_key SET status = ?, headers = ?, body = ?"
                      + " WHERE realm_id = ? AND key = ? AND attempt = ?")) {
            statement.setInt(1, status);
            statement.setString(2, headers);
            statement.setBytes(3, body);
            statement.setString(4, realm);
            statement.setObject(5, key);
            statement.setObject(6, attempt);
            return statement.executeUpdate();
          }
        });
  }

  /** Ends the attempt's lease without a final response, so a retry need not wait for it. */
  public void release(String realm, UUID key, UUID attempt) {
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE idempotency_key SET lease_until = now()"
                      + " WHERE realm_id = ? AND key = ? AND attempt = ? AND status IS NULL")) {
            statement.setString(1, realm);
            statement.setObject(2, key);
            statement.setObject(3, attempt);
            return statement.executeUpdate();
          }
        });
  }
}
