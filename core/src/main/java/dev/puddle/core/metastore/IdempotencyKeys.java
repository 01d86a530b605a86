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
 * an attempt that changes something claims the key in that same transaction, after its change's
 * statements ({@link Claim}), so the change and the claim commit together or not at all. A
 * concurrent attempt with the same key that also changed something waits on the key's row until the
 * first commits, then finds the key taken and rolls its change back. A claim whose transaction
 * makes a table's version current and whose request answers from that version alone (a create or
 * commit) stores the final response in the same statement. Otherwise, once the attempt has its
 * response, {@link #finish} stores it if it is final: for the owning attempt, or for an attempt
 * that changed nothing and finds the key free (a validation error, a missing object). An attempt
 * that finds the key held by another answers from that key's row instead of its own response. A key
 * older than its lifetime counts as new; a key whose attempt died before applying anything (left by
 * earlier versions, which claimed ahead) can be taken over once its lease ran out. Each claim and
 * each finish also deletes a few long-expired keys, so the table stays small.
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

  /** The response a claim will store with a version, built ahead of its write. */
  private record Prepared(String metadataLocation, Stored stored) {}

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
   * The key's write, {@code write_idempotency_key} (V18): a claim ({@code p_apply} true) or a final
   * response; it deletes a few long-expired keys too, and returns whether the transaction wrote and
   * whether the key's row is now the attempt's.
   */
  private static final String WRITE =
      "SELECT * FROM write_idempotency_key(?, ?, ?, ?::uuid, ?, ?, ?::uuid, ?, ?::integer, ?,"
          + " ?::bytea)";

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

    /** The response {@link #prepare} stored for a version, ahead of {@link #write}. */
    private volatile Prepared prepared;

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
    public void prepare(CommittedVersion version) {
      prepared = new Prepared(version.metadataLocation(), stored(version));
    }

    @Override
    public void write(Connection connection, CommittedVersion version) throws SQLException {
      Prepared ahead = prepared;
      prepared = null;
      Stored stored =
          ahead != null
                  && version != null
                  && ahead.metadataLocation().equals(version.metadataLocation())
              ? ahead.stored()
              : stored(version);
      // the transaction id tells whether the work wrote anything (this statement comes last):
      // a transaction that changed nothing claims nothing, and deletes no expired key
      try (PreparedStatement statement = connection.prepareStatement(WRITE)) {
        bind(
            statement,
            true,
            this,
            lease,
            stored == null ? null : stored.status(),
            stored == null ? null : stored.headers(),
            stored == null ? null : stored.body());
        try (ResultSet rs = statement.executeQuery()) {
          rs.next();
          if (!rs.getBoolean(1)) {
            return;
          }
          if (!rs.getBoolean(2)) {
            lost = true;
            throw new ServiceUnavailableException(
                "Idempotency key %s is held by another attempt; nothing was committed", key);
          }
          claimed = true;
          answered = stored != null;
        }
      }
    }

    /** The final response stored with the claim of a transaction making {@code version} current. */
    private Stored stored(CommittedVersion version) {
      Function<CommittedVersion, Response> answering = answer;
      return version == null
              || answering == null
              || version.metadataJson().length() > LARGEST_ANSWERED_WITH_CLAIM
          ? null
          : Stored.of(answering.apply(version));
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
          try (PreparedStatement statement = connection.prepareStatement(WRITE)) {
            bind(
                statement,
                false,
                claim,
                Duration.ZERO,
                stored.status(),
                stored.headers(),
                stored.body());
            try (ResultSet rs = statement.executeQuery()) {
              rs.next();
              return rs.getBoolean(2);
            }
          }
        });
  }

  /** Binds {@link #WRITE}'s parameters: a claim if {@code apply}, else a final response. */
  private static void bind(
      PreparedStatement statement,
      boolean apply,
      Claim claim,
      Duration lease,
      Integer status,
      String headers,
      byte[] body)
      throws SQLException {
    int p = 1;
    statement.setBoolean(p++, apply);
    statement.setDouble(p++, claim.lifetime.toMillis() / 1000.0);
    statement.setString(p++, claim.realm);
    statement.setObject(p++, claim.key);
    statement.setBytes(p++, claim.requestHash);
    statement.setString(p++, claim.operation);
    statement.setObject(p++, claim.attempt);
    statement.setDouble(p++, lease.toMillis() / 1000.0);
    if (status == null) {
      statement.setNull(p++, Types.INTEGER);
    } else {
      statement.setInt(p++, status);
    }
    statement.setString(p++, headers);
    statement.setBytes(p, body);
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
