package dev.puddle.core.metastore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The claim, end and re-send statements every background job table shares: purge_job and
 * maintenance_job have the same state, phase, resume_at, attempts, last_error, sent_at, claim_id,
 * claimed_until and finished_at columns, and differ only in their name, key and payload.
 *
 * @param <J> the job row
 */
public abstract class JobTable<J> implements BackgroundJobs<J> {
  /** The last error of a job whose invocation died without a word. */
  static final String ABANDONED =
      "An earlier attempt stopped without finishing (the function timed out or crashed)";

  /** Reads a job row from the columns {@link #columns} lists, in that order. */
  @FunctionalInterface
  interface RowReader<J> {
    J read(ResultSet rs) throws SQLException;
  }

  final Database database;
  private final String table;
  private final String key;
  private final String columns;
  private final RowReader<J> reader;

  JobTable(Database database, String table, String key, String columns, RowReader<J> reader) {
    this.database = database;
    this.table = table;
    this.key = key;
    this.columns = columns;
    this.reader = reader;
  }

  @Override
  public ClaimResult<J> claim(UUID id, Duration lease) {
    UUID claimId = UUID.randomUUID();
    return database.transaction(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE "
                      + table
                      + " SET state = 'running', attempts = attempts + 1,"
                      + " claim_id = ?, claimed_until = now() + ? * interval '1 millisecond',"
                      + " last_error = CASE WHEN state = 'running' THEN ? ELSE last_error END,"
                      + " updated_at = now()"
                      + " WHERE "
                      + key
                      + " = ? AND (state IN ('queued', 'failed')"
                      + " OR (state = 'running' AND claimed_until < now()))"
                      + " RETURNING "
                      + columns)) {
            statement.setObject(1, claimId);
            statement.setLong(2, lease.toMillis());
            statement.setString(3, ABANDONED);
            statement.setObject(4, id);
            try (ResultSet rs = statement.executeQuery()) {
              if (rs.next()) {
                return new Claim<>(reader.read(rs), id, claimId);
              }
            }
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT claimed_until FROM "
                      + table
                      + " WHERE "
                      + key
                      + " = ? AND state = 'running'")) {
            statement.setObject(1, id);
            try (ResultSet rs = statement.executeQuery()) {
              return rs.next() ? new Busy<>(rs.getTimestamp(1).toInstant()) : new NothingToDo<>();
            }
          }
        });
  }

  @Override
  public boolean release(Claim<J> claim) {
    return end(claim, "state = 'queued', sent_at = NULL");
  }

  @Override
  public boolean finish(Claim<J> claim) {
    return end(claim, "state = 'done', phase = 'done', resume_at = NULL, finished_at = now()");
  }

  @Override
  public boolean fail(Claim<J> claim, String error, boolean lastReceive) {
    return end(claim, "state = ?, last_error = ?", lastReceive ? "failed" : "queued", error);
  }

  /** Ends the claim with the SET clause given, whose parameters come first. */
  private boolean end(Claim<J> claim, String set, String... parameters) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE "
                      + table
                      + " SET "
                      + set
                      + ", claim_id = NULL, claimed_until = NULL, updated_at = now()"
                      + " WHERE "
                      + key
                      + " = ? AND claim_id = ?")) {
            for (int i = 0; i < parameters.length; i++) {
              statement.setString(i + 1, parameters[i]);
            }
            statement.setObject(parameters.length + 1, claim.jobId());
            statement.setObject(parameters.length + 2, claim.claimId());
            return statement.executeUpdate() == 1;
          }
        });
  }

  /**
   * Records a step's progress: the new phase and position, and what the {@code counts} clause (e.g.
   * {@code "deleted_files = deleted_files + ?"}, its parameters given) adds. False if the claim was
   * lost.
   */
  boolean advance(
      Connection connection,
      Claim<J> claim,
      String phase,
      String resumeAt,
      String counts,
      long... parameters)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "UPDATE "
                + table
                + " SET phase = ?, resume_at = ?, "
                + counts
                + ", updated_at = now() WHERE "
                + key
                + " = ? AND claim_id = ?")) {
      statement.setString(1, phase);
      statement.setString(2, resumeAt);
      for (int i = 0; i < parameters.length; i++) {
        statement.setLong(i + 3, parameters[i]);
      }
      statement.setObject(parameters.length + 3, claim.jobId());
      statement.setObject(parameters.length + 4, claim.claimId());
      return statement.executeUpdate() == 1;
    }
  }

  @Override
  public void markSent(UUID id) {
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE " + table + " SET sent_at = now() WHERE " + key + " = ?")) {
            statement.setObject(1, id);
            return statement.executeUpdate();
          }
        });
  }

  @Override
  public List<UUID> toResend(Duration grace, Duration stale, int limit) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT "
                      + key
                      + " FROM "
                      + table
                      + " WHERE state = 'queued' AND ("
                      + " (sent_at IS NULL AND updated_at < now() - ? * interval '1 millisecond')"
                      + " OR (updated_at < now() - ? * interval '1 millisecond'"
                      + " AND sent_at < now() - ? * interval '1 millisecond'))"
                      + " ORDER BY created_at LIMIT ?")) {
            statement.setLong(1, grace.toMillis());
            statement.setLong(2, stale.toMillis());
            statement.setLong(3, stale.toMillis());
            statement.setInt(4, limit);
            List<UUID> ids = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                ids.add(rs.getObject(1, UUID.class));
              }
            }
            return ids;
          }
        });
  }

  @Override
  public int failAbandoned(Duration stale) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE "
                      + table
                      + " SET state = 'failed', last_error = ?, claim_id = NULL,"
                      + " claimed_until = NULL, updated_at = now() WHERE state = 'running'"
                      + " AND claimed_until < now() - ? * interval '1 millisecond'")) {
            statement.setString(1, ABANDONED);
            statement.setLong(2, stale.toMillis());
            return statement.executeUpdate();
          }
        });
  }

  @Override
  public int requeueUnfinished() {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE "
                      + table
                      + " SET state = 'queued', sent_at = NULL, claim_id = NULL,"
                      + " claimed_until = NULL, updated_at = now()"
                      + " WHERE state IN ('queued', 'running')")) {
            return statement.executeUpdate();
          }
        });
  }

  /** The job whose key is {@code id}. */
  public Optional<J> find(UUID id) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT " + columns + " FROM " + table + " WHERE " + key + " = ?")) {
            statement.setObject(1, id);
            try (ResultSet rs = statement.executeQuery()) {
              return rs.next() ? Optional.of(reader.read(rs)) : Optional.<J>empty();
            }
          }
        });
  }

  /**
   * A warehouse's jobs, newest first, optionally of one state only (its value as stored), one page
   * per statement; {@code keyOf} gives a row's position for the next page's token.
   */
  Page<J> list(
      String realm,
      long warehouseId,
      String state,
      String pageToken,
      int pageSize,
      Function<J, String> keyOf) {
    NewestFirst after = NewestFirst.after(pageToken);
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT "
                      + columns
                      + " FROM "
                      + table
                      + " WHERE realm_id = ? AND warehouse_id = ?"
                      + " AND (?::text IS NULL OR state = ?)"
                      + " AND (?::timestamptz IS NULL OR (created_at, "
                      + key
                      + ") < (?, ?))"
                      + " ORDER BY created_at DESC, "
                      + key
                      + " DESC LIMIT ?")) {
            Timestamp createdAt = after == null ? null : Timestamp.from(after.at());
            statement.setString(1, realm);
            statement.setLong(2, warehouseId);
            statement.setString(3, state);
            statement.setString(4, state);
            statement.setTimestamp(5, createdAt);
            statement.setTimestamp(6, createdAt);
            statement.setObject(7, after == null ? null : after.id());
            statement.setInt(8, pageSize + 1);
            List<J> jobs = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                jobs.add(reader.read(rs));
              }
            }
            return Page.of(jobs, pageSize, keyOf);
          }
        });
  }
}
