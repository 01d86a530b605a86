package dev.puddle.core.metastore;

import dev.puddle.core.metastore.PurgeJob.Checkpoint;
import dev.puddle.core.metastore.PurgeJob.Phase;
import dev.puddle.core.metastore.PurgeJob.State;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;

/**
 * Purge job rows: recorded by a drop in its own transaction, claimed and checkpointed by the purge
 * function, re-sent by the sweep, listed by the admin API.
 *
 * <p>An invocation works on a job only while it holds the job's claim, which lasts no longer than
 * the invocation can run. Every update it makes is fenced by its claim id, so an invocation that
 * outlived its claim can no longer change the row.
 */
public final class PurgeJobs {
  private static final String COLUMNS =
      "object_id, realm_id, warehouse_id, kind, identifier, location, owns_location,"
          + " metadata_location, state, phase, resume_at, attempts, deleted_files, skipped_files,"
          + " last_error, created_at, updated_at, sent_at, finished_at";

  /** The last error of a job whose invocation died without a word. */
  static final String ABANDONED =
      "An earlier attempt stopped without finishing (the function timed out or crashed)";

  private final Database database;

  public PurgeJobs(Database database) {
    this.database = database;
  }

  /** Records the purge of a dropped object, in the drop's transaction. */
  static void insert(Connection connection, Warehouse warehouse, CatalogObject object)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO purge_job (object_id, realm_id, warehouse_id, kind, identifier,"
                + " location, owns_location, metadata_location)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
      statement.setObject(1, object.id());
      statement.setString(2, warehouse.realm());
      statement.setLong(3, warehouse.id());
      statement.setString(4, object.kind().sql());
      statement.setString(5, object.identifier().toString());
      statement.setString(6, object.location());
      statement.setBoolean(7, object.ownsLocation());
      statement.setString(8, object.metadataLocation());
      statement.executeUpdate();
    }
  }

  /**
   * Records the purges of dropped objects kept for undrop whose purge is due, in the transaction
   * that removes them from {@code dropped_object}: {@code ids[i]} is named {@code identifiers[i]}.
   */
  static void insertDue(Connection connection, List<String> ids, List<String> identifiers)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO purge_job (object_id, realm_id, warehouse_id, kind, identifier,"
                + " location, owns_location, metadata_location)"
                + " SELECT d.id, w.realm_id, d.warehouse_id, d.kind, i.identifier,"
                + " d.location, d.owns_location, d.metadata_location"
                + " FROM unnest(?::text[], ?::text[]) AS i (id, identifier)"
                + " JOIN dropped_object d ON d.id = i.id::uuid"
                + " JOIN warehouse w ON w.id = d.warehouse_id"
                + " ON CONFLICT DO NOTHING")) {
      statement.setArray(1, connection.createArrayOf("text", ids.toArray()));
      statement.setArray(2, connection.createArrayOf("text", identifiers.toArray()));
      statement.executeUpdate();
    }
  }

  public Optional<PurgeJob> find(UUID id) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT " + COLUMNS + " FROM purge_job WHERE object_id = ?")) {
            statement.setObject(1, id);
            try (ResultSet rs = statement.executeQuery()) {
              return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
          }
        });
  }

  /** The outcome of trying to claim a job. */
  public sealed interface ClaimResult {}

  /** The job is this invocation's until {@code claim} ends. */
  public record Claim(PurgeJob job, UUID claimId) implements ClaimResult {}

  /** Nothing to do: the job is done, or there is no such job. */
  public record Finished() implements ClaimResult {}

  /** Another invocation holds the job until {@code until}. */
  public record Busy(Instant until) implements ClaimResult {}

  /**
   * Claims a job for {@code lease}, the time the invocation can still run. Queued and failed jobs
   * can be claimed (a failed one when its message is redriven), and running ones whose claim has
   * expired: the invocation that held it died, which the job's last error then says.
   */
  public ClaimResult claim(UUID id, Duration lease) {
    UUID claimId = UUID.randomUUID();
    return database.transaction(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE purge_job SET state = 'running', attempts = attempts + 1,"
                      + " claim_id = ?, claimed_until = now() + ? * interval '1 millisecond',"
                      + " last_error = CASE WHEN state = 'running' THEN ? ELSE last_error END,"
                      + " updated_at = now()"
                      + " WHERE object_id = ? AND (state IN ('queued', 'failed')"
                      + " OR (state = 'running' AND claimed_until < now()))"
                      + " RETURNING "
                      + COLUMNS)) {
            statement.setObject(1, claimId);
            statement.setLong(2, lease.toMillis());
            statement.setString(3, ABANDONED);
            statement.setObject(4, id);
            try (ResultSet rs = statement.executeQuery()) {
              if (rs.next()) {
                return new Claim(read(rs), claimId);
              }
            }
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT claimed_until FROM purge_job WHERE object_id = ? AND state ="
                      + " 'running'")) {
            statement.setObject(1, id);
            try (ResultSet rs = statement.executeQuery()) {
              return rs.next() ? new Busy(rs.getTimestamp(1).toInstant()) : new Finished();
            }
          }
        });
  }

  /**
   * Records progress: the new position, what the step deleted and skipped, and the files outside
   * the location it found (each path noted once). False if the claim was lost.
   */
  public boolean checkpoint(Claim claim, Checkpoint checkpoint, Collection<String> outsideFiles) {
    return database.transaction(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE purge_job SET phase = ?, resume_at = ?,"
                      + " deleted_files = deleted_files + ?, skipped_files = skipped_files + ?,"
                      + " updated_at = now() WHERE object_id = ? AND claim_id = ?")) {
            statement.setString(1, checkpoint.phase().sql());
            statement.setString(2, checkpoint.resumeAt());
            statement.setLong(3, checkpoint.deleted());
            statement.setLong(4, checkpoint.skipped());
            statement.setObject(5, claim.job().id());
            statement.setObject(6, claim.claimId());
            if (statement.executeUpdate() == 0) {
              return false;
            }
          }
          if (!outsideFiles.isEmpty()) {
            try (PreparedStatement statement =
                connection.prepareStatement(
                    "INSERT INTO purge_outside_file (job_id, path)"
                        + " SELECT ?, unnest(?::text[]) ON CONFLICT DO NOTHING")) {
              statement.setObject(1, claim.job().id());
              statement.setArray(
                  2, connection.createArrayOf("text", outsideFiles.toArray(String[]::new)));
              statement.executeUpdate();
            }
          }
          return true;
        });
  }

  /** Ends a chunk that did not finish the job: it waits, queued, for its continuation message. */
  public boolean release(Claim claim) {
    return end(claim, "state = 'queued', sent_at = NULL");
  }

  public boolean finish(Claim claim) {
    return end(claim, "state = 'done', phase = 'done', resume_at = NULL, finished_at = now()");
  }

  /**
   * Records a failed attempt. On the message's last receive the job has failed for good (its
   * message goes to the dead-letter queue); before that it waits for the message's redelivery.
   */
  public boolean fail(Claim claim, String error, boolean lastReceive) {
    return end(
        claim,
        "state = ?, last_error = ?",
        (lastReceive ? State.FAILED : State.QUEUED).sql(),
        error);
  }

  /** Ends the claim with the SET clause given, whose parameters come first. */
  private boolean end(Claim claim, String set, String... parameters) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE purge_job SET "
                      + set
                      + ", claim_id = NULL, claimed_until = NULL, updated_at = now()"
                      + " WHERE object_id = ? AND claim_id = ?")) {
            for (int i = 0; i < parameters.length; i++) {
              statement.setString(i + 1, parameters[i]);
            }
            statement.setObject(parameters.length + 1, claim.job().id());
            statement.setObject(parameters.length + 2, claim.claimId());
            return statement.executeUpdate() == 1;
          }
        });
  }

  /** Notes that a message for the job was sent. */
  public void markSent(UUID id) {
    database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE purge_job SET sent_at = now() WHERE object_id = ?")) {
            statement.setObject(1, id);
            return statement.executeUpdate();
          }
        });
  }

  /**
   * The files outside the location a job noted, in order, after {@code after} (or from the start).
   */
  public List<String> outsideFiles(UUID id, String after, int limit) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT path FROM purge_outside_file WHERE job_id = ?"
                      + " AND (?::text IS NULL OR path > ?) ORDER BY path LIMIT ?")) {
            statement.setObject(1, id);
            statement.setString(2, after);
            statement.setString(3, after);
            statement.setInt(4, limit);
            List<String> paths = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                paths.add(rs.getString(1));
              }
            }
            return paths;
          }
        });
  }

  public long countOutsideFiles(UUID id) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT count(*) FROM purge_outside_file WHERE job_id = ?")) {
            statement.setObject(1, id);
            try (ResultSet rs = statement.executeQuery()) {
              rs.next();
              return rs.getLong(1);
            }
          }
        });
  }

  /**
   * The live tables and views, of any warehouse, whose location is {@code location} or lies inside
   * it: deleting under it would take their files. Registered objects count too, and so do dropped
   * ones kept for undrop.
   */
  public List<String> liveObjectsWithin(String location) {
    String normalized = Locations.normalize(location);
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT location FROM catalog_object"
                      + " WHERE location = ? OR location LIKE ? ESCAPE '\\'"
                      + " UNION ALL SELECT location FROM dropped_object"
                      + " WHERE location = ? OR location LIKE ? ESCAPE '\\' LIMIT 10")) {
            statement.setString(1, normalized);
            statement.setString(2, Locations.likeBelow(normalized));
            statement.setString(3, normalized);
            statement.setString(4, Locations.likeBelow(normalized));
            return strings(statement);
          }
        });
  }

  /**
   * Of the given file paths, those inside the location of a live table or view (or one kept for
   * undrop), of any warehouse.
   */
  public Set<String> insideLiveObjects(Collection<String> paths) {
    if (paths.isEmpty()) {
      return Set.of();
    }
    List<String> live =
        database.autocommit(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT location FROM catalog_object WHERE location = ANY (?)"
                          + " UNION SELECT location FROM dropped_object WHERE location = ANY (?)")) {
                Array ancestors = connection.createArrayOf("text", ancestors(paths).toArray());
                statement.setArray(1, ancestors);
                statement.setArray(2, ancestors);
                return strings(statement);
              }
            });
    Set<String> inside = new LinkedHashSet<>();
    for (String path : paths) {
      if (live.stream().anyMatch(location -> Locations.isWithin(path, location))) {
        inside.add(path);
      }
    }
    return inside;
  }

  /**
   * Jobs whose message must be sent again: one was never sent (the drop's own send failed, or a
   * continuation's) for longer than {@code grace}, or a queued job has not moved for longer than
   * {@code stale}. Oldest first.
   */
  public List<UUID> toResend(Duration grace, Duration stale, int limit) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT object_id FROM purge_job WHERE state = 'queued' AND ("
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

  /**
   * Marks failed the jobs whose invocation died more than {@code stale} ago without SQS handing the
   * job to another: their message went to the dead-letter queue on its last receive.
   */
  public int failAbandoned(Duration stale) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE purge_job SET state = 'failed', last_error = ?, claim_id = NULL,"
                      + " claimed_until = NULL, updated_at = now() WHERE state = 'running'"
                      + " AND claimed_until < now() - ? * interval '1 millisecond'")) {
            statement.setString(1, ABANDONED);
            statement.setLong(2, stale.toMillis());
            return statement.executeUpdate();
          }
        });
  }

  /**
   * Makes every unfinished job wait for a new message, for a queue that lost its messages (the
   * local twin's lives in memory). The sweep then sends them.
   */
  public int requeueUnfinished() {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE purge_job SET state = 'queued', sent_at = NULL, claim_id = NULL,"
                      + " claimed_until = NULL, updated_at = now()"
                      + " WHERE state IN ('queued', 'running')")) {
            return statement.executeUpdate();
          }
        });
  }

  /**
   * Queues a failed job of the warehouse again, unsent, so that it is the outbox row of a new
   * message: the caller sends it after this commits, and the sweep sends it if that send is lost.
   * Its counts and last error stay; the new message claims it like any queued job. Empty if the
   * warehouse has no such job; a job that has not failed is a conflict.
   */
  public Optional<PurgeJob> redrive(String realm, long warehouseId, UUID id) {
    return database.transaction(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE purge_job SET state = 'queued', sent_at = NULL, updated_at = now()"
                      + " WHERE object_id = ? AND realm_id = ? AND warehouse_id = ?"
                      + " AND state = 'failed' RETURNING "
                      + COLUMNS)) {
            statement.setObject(1, id);
            statement.setString(2, realm);
            statement.setLong(3, warehouseId);
            try (ResultSet rs = statement.executeQuery()) {
              if (rs.next()) {
                return Optional.of(read(rs));
              }
            }
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT state FROM purge_job"
                      + " WHERE object_id = ? AND realm_id = ? AND warehouse_id = ?")) {
            statement.setObject(1, id);
            statement.setString(2, realm);
            statement.setLong(3, warehouseId);
            try (ResultSet rs = statement.executeQuery()) {
              if (rs.next()) {
                throw new CommitFailedException(
                    "Purge job %s is %s: only a failed job can be redriven", id, rs.getString(1));
              }
            }
          }
          return Optional.empty();
        });
  }

  /** A warehouse's jobs, newest first, optionally of one state only. */
  public Page<PurgeJob> list(
      String realm, long warehouseId, State state, String pageToken, int pageSize) {
    Position after = Position.after(pageToken);
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT "
                      + COLUMNS
                      + " FROM purge_job WHERE realm_id = ? AND warehouse_id = ?"
                      + " AND (?::text IS NULL OR state = ?)"
                      + " AND (?::timestamptz IS NULL OR (created_at, object_id) < (?, ?))"
                      + " ORDER BY created_at DESC, object_id DESC LIMIT ?")) {
            String stateSql = state == null ? null : state.sql();
            Timestamp createdAt = after == null ? null : Timestamp.from(after.createdAt());
            statement.setString(1, realm);
            statement.setLong(2, warehouseId);
            statement.setString(3, stateSql);
            statement.setString(4, stateSql);
            statement.setTimestamp(5, createdAt);
            statement.setTimestamp(6, createdAt);
            statement.setObject(7, after == null ? null : after.id());
            statement.setInt(8, pageSize + 1);
            List<PurgeJob> jobs = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                jobs.add(read(rs));
              }
            }
            return Page.of(jobs, pageSize, Position::key);
          }
        });
  }

  /** A keyset position in the newest-first listing: the page token's key. */
  private record Position(Instant createdAt, UUID id) {
    static String key(PurgeJob job) {
      return job.createdAt() + " " + job.id();
    }

    /** The position a page token names, or null for the first page. */
    static Position after(String pageToken) {
      String key = Page.keyAfter(pageToken);
      if (key == null) {
        return null;
      }
      try {
        String[] parts = key.split(" ");
        return new Position(Instant.parse(parts[0]), UUID.fromString(parts[1]));
      } catch (RuntimeException e) {
        throw new BadRequestException("Invalid page token: %s", pageToken);
      }
    }
  }

  /** Every location that is a path or one of its parent folders, scheme and bucket kept. */
  private static Set<String> ancestors(Collection<String> paths) {
    Set<String> result = new LinkedHashSet<>();
    for (String path : paths) {
      result.addAll(Locations.ancestors(Locations.normalize(path)));
    }
    return result;
  }

  private static List<String> strings(PreparedStatement statement) throws SQLException {
    List<String> values = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        values.add(rs.getString(1));
      }
    }
    return values;
  }

  private static PurgeJob read(ResultSet rs) throws SQLException {
    return new PurgeJob(
        rs.getObject(1, UUID.class),
        rs.getString(2),
        rs.getLong(3),
        CatalogObject.Kind.fromSql(rs.getString(4)),
        rs.getString(5),
        rs.getString(6),
        rs.getBoolean(7),
        rs.getString(8),
        State.fromSql(rs.getString(9)),
        Phase.fromSql(rs.getString(10)),
        rs.getString(11),
        rs.getInt(12),
        rs.getLong(13),
        rs.getLong(14),
        rs.getString(15),
        instant(rs.getTimestamp(16)),
        instant(rs.getTimestamp(17)),
        instant(rs.getTimestamp(18)),
        instant(rs.getTimestamp(19)));
  }

  private static Instant instant(Timestamp timestamp) {
    return timestamp == null ? null : timestamp.toInstant();
  }
}
