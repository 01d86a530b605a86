package dev.puddle.core.metastore;

import dev.puddle.core.api.Gzip;
import dev.puddle.core.api.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Idempotency keys in PostgreSQL. There is no claim ahead of the request: the first transaction of
 * an attempt that changes something claims the key in that same transaction, as its last statement
 * ({@link Claim}), so the change and the claim commit together or not at all. A concurrent attempt
 * with the same key that also changed something waits on the key's row until the first commits,
 * then finds the key taken and rolls its change back. A claim whose transaction makes a table's
 * version current and whose request answers from that version alone (a create or commit) stores the
 * final response in the same statement. Otherwise, once the attempt has its response, {@link
 * #finish} stores it if it is final: for the owning attempt, or for an attempt that changed nothing
 * and finds the key free (a validation error, a missing object). An attempt that finds the key held
 * by another answers from that key's row instead of its own response. A key older than its lifetime
 * counts as new; a key whose attempt died before applying anything (left by earlier versions, which
 * claimed ahead) can be taken over once its lease ran out. Each claim and each finish also deletes
 * a few long-expired keys, so the table stays small.
 */
public final class IdempotencyKeys {
  /** A key's row as another attempt left it. */
  public record Existing(
      byte[] requestHash,
      boolean applied,
      boolean leaseRunning,
      Integer status,
      String headers,
      byte[] body) {
    /**
     * Whether another attempt of the request {@code requestHash} may take the key over: its attempt
     * ended without a response and without applying anything.
     */
    public boolean abandonedFor(byte[] requestHash) {
      return status == null
          && !applied
          && !leaseRunning
          && java.util.Arrays.equals(this.requestHash, requestHash);
    }
  }

  /**
   * Metadata JSON of more characters than this is answered after the commit, by {@link #finish}:
   * building and gzipping its response would hold the table's row lock longer, and the body might
   * not fit in one Data API request beside the claim, which would fail the change for its answer.
   */
  private static final int LARGEST_ANSWERED_WITH_CLAIM = 1 << 22;

  /** Long-expired keys deleted per claim or finish. */
  private static final int CLEANUP_BATCH = 20;

  /**
   * Deletes a few long-expired keys, but not the key of the statement (parameters 1 to 3: the
   * lifetime in seconds, realm and key), and only if {@code condition} holds: a CTE's definition.
   * The rows are taken with {@code SKIP LOCKED}, so two statements never wait for each other here.
   */
  private static String expired(String condition) {
    return "expired AS (DELETE FROM idempotency_key WHERE "
        + condition
        + " AND ctid = ANY (ARRAY("
        + " SELECT ctid FROM idempotency_key"
        + " WHERE created_at < now() - make_interval(secs => ?) - interval '1 hour'"
        + " AND NOT (realm_id = ? AND key = ?)"
        + " ORDER BY created_at LIMIT "
        + CLEANUP_BATCH
        + " FOR UPDATE SKIP LOCKED)))";
  }

  /** A final response as a key's row keeps it: headers as JSON, the body gzipped. */
  private record Stored(int status, String headers, byte[] body) {
    static Stored of(Response response) {
      byte[] body =
          response.body() == null
              ? null
              : response.gzippedBody() != null
                  ? response.gzippedBody()
                  : Gzip.compress(response.body());
      return new Stored(response.status(), Json.fromMap(response.headers()), body);
    }
  }

  /**
   * When an attempt may take the key's row {@code k} for the request {@code EXCLUDED}: it owns it
   * already, the key outlived its lifetime (parameter 1, seconds), or its attempt ended without a
   * response and without applying anything.
   */
  private static final String TAKES =
      " WHERE k.attempt = EXCLUDED.attempt"
          + " OR k.created_at < now() - make_interval(secs => ?)"
          + " OR (k.status IS NULL AND NOT k.applied AND k.lease_until < now()"
          + " AND k.request_hash = EXCLUDED.request_hash)";

  /** Resets the key's row for an attempt that takes it; parameter 1 is the lifetime, seconds. */
  private static final String TAKE =
      " request_hash = EXCLUDED.request_hash, operation = EXCLUDED.operation,"
          + " attempt = EXCLUDED.attempt, lease_until = EXCLUDED.lease_until,"
          + " created_at = CASE WHEN k.created_at < now() - make_interval(secs => ?)"
          + " THEN now() ELSE k.created_at END";

  private final Database database;

  public IdempotencyKeys(Database database) {
    this.database = database;
  }

  /**
   * One attempt of a keyed request: the mark each of its change transactions writes. It claims the
   * key, or (in a later transaction of the same attempt) confirms it still owns it, and marks it
   * applied — only if the transaction changed something — storing the request's final response with
   * it when the version the transaction makes current decides that response ({@link #answerWith}).
   * If another attempt holds the key, the transaction must not commit: the mark throws, and {@link
   * #lost()} tells the request to answer from the key's row.
   */
  public static final class Claim implements IdempotencyMark {
    private final String realm;
    private final UUID key;
    private final byte[] requestHash;
    private final String operation;
    private final UUID attempt;
    private final Duration lease;
    private final Duration lifetime;
    private volatile Function<CommittedVersion, Response> answer;
    private volatile boolean claimed;
    private volatile boolean answered;
    private volatile boolean lost;

    public Claim(
        String realm,
        UUID key,
        byte[] requestHash,
        String operation,
        UUID attempt,
        Duration lease,
        Duration lifetime) {
      this.realm = realm;
      this.key = key;
      this.requestHash = requestHash;
      this.operation = operation;
      this.attempt = attempt;
      this.lease = lease;
      this.lifetime = lifetime;
    }

    public String realm() {
      return realm;
    }

    public UUID key() {
      return key;
    }

    public byte[] requestHash() {
      return requestHash.clone();
    }

    /** Whether a transaction of this attempt claimed the key (it may have rolled back since). */
    public boolean claimed() {
      return claimed;
    }

    /** Whether a transaction of this attempt found the key held by another and rolled back. */
    public boolean lost() {
      return lost;
    }

    /**
     * Whether the last transaction of this attempt that claimed the key stored the final response
     * with it: nothing is left to record, and if that transaction rolled back after all, nothing of
     * the attempt is left for a retry to find either.
     */
    public boolean answered() {
      return answered;
    }

    @Override
    public void answerWith(Function<CommittedVersion, Response> answer) {
      this.answer = answer;
    }

    @Override
    public void write(Connection connection, CommittedVersion version) throws SQLException {
      Function<CommittedVersion, Response> answering = answer;
      Response response =
          version == null
                  || answering == null
                  || version.metadataJson().length() > LARGEST_ANSWERED_WITH_CLAIM
              ? null
              : answering.apply(version);
      Stored stored = response == null ? null : Stored.of(response);
      // the transaction id tells whether the work wrote anything (this statement comes last):
      // a transaction that changed nothing claims nothing, and deletes no expired key
      try (PreparedStatement statement =
          connection.prepareStatement(
              "WITH wrote AS MATERIALIZED (SELECT txid_current_if_assigned() IS NOT NULL AS yes),"
                  + " "
                  + expired("(SELECT yes FROM wrote)")
                  + ", claimed AS (INSERT INTO idempotency_key AS k (realm_id, key,"
                  + " request_hash, operation, attempt, lease_until, applied, status, headers,"
                  + " body)"
                  + " SELECT ?, ?, ?, ?, ?, now() + make_interval(secs => ?), true, ?::integer,"
                  + " ?::text, ?::bytea FROM wrote WHERE yes"
                  + " ON CONFLICT (realm_id, key) DO UPDATE SET"
                  + TAKE
                  + ", applied = true, status = EXCLUDED.status, headers = EXCLUDED.headers,"
                  + " body = EXCLUDED.body"
                  + TAKES
                  + " RETURNING 1)"
                  + " SELECT (SELECT yes FROM wrote), (SELECT count(*) FROM claimed)")) {
        double lifetimeSeconds = lifetime.toMillis() / 1000.0;
        int p = 1;
        statement.setDouble(p++, lifetimeSeconds);
        statement.setString(p++, realm);
        statement.setObject(p++, key);
        statement.setString(p++, realm);
        statement.setObject(p++, key);
        statement.setBytes(p++, requestHash);
        statement.setString(p++, operation);
        statement.setObject(p++, attempt);
        statement.setDouble(p++, lease.toMillis() / 1000.0);
        if (stored == null) {
          statement.setNull(p++, Types.INTEGER);
        } else {
          statement.setInt(p++, stored.status());
        }
        statement.setString(p++, stored == null ? null : stored.headers());
        statement.setBytes(p++, stored == null ? null : stored.body());
        statement.setDouble(p++, lifetimeSeconds);
        statement.setDouble(p, lifetimeSeconds);
        try (ResultSet rs = statement.executeQuery()) {
          rs.next();
          if (!rs.getBoolean(1)) {
            return;
          }
          if (rs.getLong(2) == 0) {
            lost = true;
            throw new ServiceUnavailableException(
                "Idempotency key %s is held by another attempt; nothing was committed", key);
          }
          claimed = true;
          answered = stored != null;
        }
      }
    }
  }

  /** The key's row, if it exists and is younger than {@code lifetime}. */
  public Optional<Existing> find(String realm, UUID key, Duration lifetime) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT request_hash, applied, lease_until > now(), status, headers, body"
                      + " FROM idempotency_key WHERE realm_id = ? AND key = ?"
                      + " AND created_at >= now() - make_interval(secs => ?)")) {
            statement.setString(1, realm);
            statement.setObject(2, key);
            statement.setDouble(3, lifetime.toMillis() / 1000.0);
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
   * Stores the final response of {@code claim}'s attempt: true if it did, false if another attempt
   * holds the key (the response is then not this attempt's to give). The attempt owns the key if
   * one of its transactions claimed it; if none did, it takes the key now, as a claim would.
   */
  public boolean finish(Claim claim, Response response) {
    Stored stored = Stored.of(response);
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "WITH "
                      + expired("true")
                      + " INSERT INTO idempotency_key AS k (realm_id, key, request_hash, operation,"
                      + " attempt, lease_until, status, headers, body)"
                      + " VALUES (?, ?, ?, ?, ?, now(), ?, ?, ?)"
                      + " ON CONFLICT (realm_id, key) DO UPDATE SET"
                      + TAKE
                      + ", applied = k.attempt = EXCLUDED.attempt AND k.applied,"
                      + " status = EXCLUDED.status, headers = EXCLUDED.headers,"
                      + " body = EXCLUDED.body"
                      + TAKES
                      + " RETURNING 1")) {
            double lifetimeSeconds = claim.lifetime.toMillis() / 1000.0;
            statement.setDouble(1, lifetimeSeconds);
            statement.setString(2, claim.realm);
            statement.setObject(3, claim.key);
            statement.setString(4, claim.realm);
            statement.setObject(5, claim.key);
            statement.setBytes(6, claim.requestHash);
            statement.setString(7, claim.operation);
            statement.setObject(8, claim.attempt);
            statement.setInt(9, stored.status());
            statement.setString(10, stored.headers());
            statement.setBytes(11, stored.body());
            statement.setDouble(12, lifetimeSeconds);
            statement.setDouble(13, lifetimeSeconds);
            try (ResultSet rs = statement.executeQuery()) {
              return rs.next();
            }
          }
        });
  }

  /** Ends the attempt's lease without a final response, so a retry need not wait for it. */
  public void release(Claim claim) {
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE idempotency_key SET lease_until = now()"
                      + " WHERE realm_id = ? AND key = ? AND attempt = ? AND status IS NULL")) {
            statement.setString(1, claim.realm);
            statement.setObject(2, claim.key);
            statement.setObject(3, claim.attempt);
            return statement.executeUpdate();
          }
        });
  }
}
