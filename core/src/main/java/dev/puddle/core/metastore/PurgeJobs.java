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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.exceptions.CommitFailedException;

/**
 * Purge job rows: recorded by a drop in its own transaction, claimed and checkpointed by the purge
 * function, re-sent by the sweep, listed by the admin API. Claims fence every update ({@link
 * BackgroundJobs}).
 */
public final class PurgeJobs extends JobTable<PurgeJob> {
  private static final String COLUMNS =
      "object_id, realm_id, warehouse_id, kind, identifier, location, owns_location,"
          + " metadata_location, state, phase, resume_at, attempts, deleted_files, skipped_files,"
          + " last_error, created_at, updated_at, sent_at, finished_at";

  public PurgeJobs(Database database) {
    super(database, "purge_job", "object_id", COLUMNS, PurgeJobs::read);
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

  /**
   * Records progress: the new position, what the step deleted and skipped, and the files outside
   * the location it found (each path noted once). False if the claim was lost.
   */
  public boolean checkpoint(
      Claim<PurgeJob> claim, Checkpoint checkpoint, Collection<String> outsideFiles) {
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
    return list(
        realm,
        warehouseId,
        state == null ? null : state.sql(),
        pageToken,
        pageSize,
        job -> NewestFirst.key(job.createdAt(), job.id()));
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
