package dev.puddle.core.metastore;

import dev.puddle.core.metastore.MaintenanceJob.Counts;
import dev.puddle.core.metastore.MaintenanceJob.FileKind;
import dev.puddle.core.metastore.MaintenanceJob.NotedFile;
import dev.puddle.core.metastore.MaintenanceJob.Phase;
import dev.puddle.core.metastore.MaintenanceJob.State;
import dev.puddle.core.metastore.MaintenanceJob.Trigger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Maintenance job rows: started by the sweep, by a commit or by a management call (at most one
 * unfinished per table, which a partial unique index keeps), claimed and checkpointed by the purge
 * function, listed by the admin API. Claims fence every update ({@link BackgroundJobs}).
 */
public final class MaintenanceJobs extends JobTable<MaintenanceJob> {
  private static final String COUNT_COLUMNS =
      "snapshots_expired, deleted_data_files, deleted_delete_files, deleted_manifests,"
          + " deleted_manifest_lists, deleted_statistics_files, deleted_metadata_files,"
          + " deleted_orphan_files, deleted_bytes";

  private static final String COLUMNS =
      "id, realm_id, warehouse_id,"
          + " (SELECT name FROM warehouse w WHERE w.id = maintenance_job.warehouse_id),"
          + " table_id, identifier, trigger, state, phase, resume_at, attempts, "
          + COUNT_COLUMNS
          + ", last_error, created_at, updated_at, sent_at, finished_at";

  /** The INSERT of a new run, ignored while the table has an unfinished one. */
  private static final String INSERT =
      "INSERT INTO maintenance_job (id, realm_id, warehouse_id, table_id, identifier, trigger)"
          + " SELECT ?, w.realm_id, w.id, o.id, array_to_string(n.levels, '.') || '.' || o.name, ?"
          + " FROM catalog_object o JOIN namespace n ON n.id = o.namespace_id"
          + " JOIN warehouse w ON w.id = o.warehouse_id"
          + " WHERE o.id = ? AND o.kind = 'table'";

  private static final String UNLESS_UNFINISHED =
      " ON CONFLICT (table_id) WHERE state IN ('queued', 'running') DO NOTHING";

  public MaintenanceJobs(Database database) {
    super(database, "maintenance_job", "id", COLUMNS, MaintenanceJobs::read);
  }

  /**
   * Starts a run of the table {@code tableId}, unless one is queued or running: the new job's id,
   * or empty if there was one already or there is no such table.
   */
  public Optional<UUID> start(UUID tableId, Trigger trigger) {
    return insert(INSERT + UNLESS_UNFINISHED, tableId, trigger, null);
  }

  /**
   * Starts a run of the table after a commit, unless one is unfinished or one started less than
   * {@code debounce} ago: commits in a burst start one run.
   */
  public Optional<UUID> startAfterCommit(UUID tableId, Duration debounce) {
    return insert(
        INSERT
            + " AND NOT EXISTS (SELECT 1 FROM maintenance_job j WHERE j.table_id = o.id"
            + " AND j.created_at > now() - ? * interval '1 millisecond')"
            + UNLESS_UNFINISHED,
        tableId,
        Trigger.COMMIT,
        debounce);
  }

  private Optional<UUID> insert(String sql, UUID tableId, Trigger trigger, Duration debounce) {
    UUID id = UUID.randomUUID();
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setObject(1, id);
            statement.setString(2, trigger.wireName());
            statement.setObject(3, tableId);
            if (debounce != null) {
              statement.setLong(4, debounce.toMillis());
            }
            return statement.executeUpdate() == 1 ? Optional.of(id) : Optional.<UUID>empty();
          }
        });
  }

  /**
   * Starts a scheduled run of up to {@code limit} tables created more than {@code interval} ago
   * that had no run started since, least recently changed first, and returns the new jobs' ids.
   */
  public List<UUID> startDue(Duration interval, int limit) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO maintenance_job"
                      + " (id, realm_id, warehouse_id, table_id, identifier, trigger)"
                      + " SELECT gen_random_uuid(), w.realm_id, w.id, o.id,"
                      + " array_to_string(n.levels, '.') || '.' || o.name, 'schedule'"
                      + " FROM catalog_object o JOIN namespace n ON n.id = o.namespace_id"
                      + " JOIN warehouse w ON w.id = o.warehouse_id WHERE o.kind = 'table'"
                      + " AND o.created_at < now() - ? * interval '1 millisecond'"
                      + " AND NOT EXISTS (SELECT 1 FROM maintenance_job j WHERE j.table_id = o.id"
                      + " AND (j.state IN ('queued', 'running')"
                      + " OR j.created_at > now() - ? * interval '1 millisecond'))"
                      + " ORDER BY o.updated_at LIMIT ?"
                      + UNLESS_UNFINISHED
                      + " RETURNING id")) {
            statement.setLong(1, interval.toMillis());
            statement.setLong(2, interval.toMillis());
            statement.setInt(3, limit);
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

  /** The table's current name in its warehouse, if it still exists. */
  public Optional<TableIdentifier> table(UUID tableId) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT n.levels, o.name FROM catalog_object o"
                      + " JOIN namespace n ON n.id = o.namespace_id"
                      + " WHERE o.id = ? AND o.kind = 'table'")) {
            statement.setObject(1, tableId);
            try (ResultSet rs = statement.executeQuery()) {
              return rs.next()
                  ? Optional.of(
                      TableIdentifier.of(
                          Namespace.of((String[]) rs.getArray(1).getArray()), rs.getString(2)))
                  : Optional.<TableIdentifier>empty();
            }
          }
        });
  }

  /**
   * Records a step's progress: the new phase and position, what it did, and the files it noted for
   * deletion (each path once). False if the claim was lost.
   */
  public boolean checkpoint(
      Claim<MaintenanceJob> claim,
      Phase phase,
      String resumeAt,
      Counts done,
      List<NotedFile> noted) {
    return database.transaction(
        connection -> {
          if (!advance(
              connection,
              claim,
              phase.wireName(),
              resumeAt,
              "snapshots_expired = snapshots_expired + ?,"
                  + " deleted_data_files = deleted_data_files + ?,"
                  + " deleted_delete_files = deleted_delete_files + ?,"
                  + " deleted_manifests = deleted_manifests + ?,"
                  + " deleted_manifest_lists = deleted_manifest_lists + ?,"
                  + " deleted_statistics_files = deleted_statistics_files + ?,"
                  + " deleted_metadata_files = deleted_metadata_files + ?,"
                  + " deleted_orphan_files = deleted_orphan_files + ?,"
                  + " deleted_bytes = deleted_bytes + ?",
              done.snapshotsExpired(),
              done.dataFiles(),
              done.deleteFiles(),
              done.manifests(),
              done.manifestLists(),
              done.statisticsFiles(),
              done.metadataFiles(),
              done.orphanFiles(),
              done.bytes())) {
            return false;
          }
          note(connection, claim.jobId(), noted);
          return true;
        });
  }

  private static void note(Connection connection, UUID job, List<NotedFile> noted)
      throws SQLException {
    if (noted.isEmpty()) {
      return;
    }
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO maintenance_file (job_id, path, kind, size)"
                + " SELECT ?, * FROM unnest(?::text[], ?::text[], ?::bigint[])"
                + " ON CONFLICT DO NOTHING")) {
      statement.setObject(1, job);
      statement.setArray(
          2, connection.createArrayOf("text", noted.stream().map(NotedFile::path).toArray()));
      statement.setArray(
          3,
          connection.createArrayOf(
              "text", noted.stream().map(file -> file.kind().wireName()).toArray()));
      statement.setArray(
          4, connection.createArrayOf("bigint", noted.stream().map(NotedFile::size).toArray()));
      statement.executeUpdate();
    }
  }

  /** The files a job noted, in path order, after {@code after} (or from the start). */
  public List<NotedFile> noted(UUID job, String after, int limit) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT path, kind, size FROM maintenance_file WHERE job_id = ?"
                      + " AND (?::text IS NULL OR path > ?) ORDER BY path LIMIT ?")) {
            statement.setObject(1, job);
            statement.setString(2, after);
            statement.setString(3, after);
            statement.setInt(4, limit);
            List<NotedFile> files = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                files.add(
                    new NotedFile(
                        rs.getString(1), FileKind.fromWireName(rs.getString(2)), rs.getLong(3)));
              }
            }
            return files;
          }
        });
  }

  /** A warehouse's jobs, newest first, optionally of one state only. */
  public Page<MaintenanceJob> list(
      String realm, long warehouseId, State state, String pageToken, int pageSize) {
    return list(
        realm,
        warehouseId,
        state == null ? null : state.wireName(),
        pageToken,
        pageSize,
        job -> NewestFirst.key(job.createdAt(), job.id()));
  }

  private static MaintenanceJob read(ResultSet rs) throws SQLException {
    return new MaintenanceJob(
        rs.getObject(1, UUID.class),
        rs.getString(2),
        rs.getLong(3),
        rs.getString(4),
        rs.getObject(5, UUID.class),
        rs.getString(6),
        Trigger.fromWireName(rs.getString(7)),
        State.fromWireName(rs.getString(8)),
        Phase.fromWireName(rs.getString(9)),
        rs.getString(10),
        rs.getInt(11),
        new Counts(
            rs.getLong(12),
            rs.getLong(13),
            rs.getLong(14),
            rs.getLong(15),
            rs.getLong(16),
            rs.getLong(17),
            rs.getLong(18),
            rs.getLong(19),
            rs.getLong(20)),
        rs.getString(21),
        instant(rs.getTimestamp(22)),
        instant(rs.getTimestamp(23)),
        instant(rs.getTimestamp(24)),
        instant(rs.getTimestamp(25)));
  }

  private static Instant instant(Timestamp timestamp) {
    return timestamp == null ? null : timestamp.toInstant();
  }
}
