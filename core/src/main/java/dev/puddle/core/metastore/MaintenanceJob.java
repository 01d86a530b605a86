package dev.puddle.core.metastore;

import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/** One maintenance run of a table: what started it, where it stands and what it has done so far. */
public record MaintenanceJob(
    UUID id,
    String realm,
    long warehouseId,
    String warehouseName,
    UUID tableId,
    String identifier,
    Trigger trigger,
    State state,
    Phase phase,
    String resumeAt,
    int attempts,
    Counts counts,
    String lastError,
    Instant createdAt,
    Instant updatedAt,
    Instant sentAt,
    Instant finishedAt) {

  /** What started a run. */
  public enum Trigger {
    /** The sweep: the table was not maintained for the warehouse's interval. */
    SCHEDULE,
    /** A commit that left the table with more snapshots than the threshold. */
    COMMIT,
    /** A management call. */
    REQUEST;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Trigger fromWireName(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  /** Where a run stands as a whole; as a purge job's state. */
  public enum State {
    QUEUED,
    RUNNING,
    DONE,
    FAILED;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static State fromWireName(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  /** The steps of a run, in order. */
  public enum Phase {
    /** Commit the expiry of the snapshots and refs the retention settings let go. */
    EXPIRE,
    /** Note the files only the expired snapshots reached. */
    PLAN,
    /** Delete the noted files, 1000 a step. */
    DELETE,
    /** List the location; delete orphan files and metadata files dropped from the log. */
    ORPHANS,
    DONE;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Phase fromWireName(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  /** The kinds of file a run deletes, as counted. */
  public enum FileKind {
    DATA,
    DELETE,
    MANIFEST,
    MANIFEST_LIST,
    STATISTICS,
    /** A metadata file no longer in the metadata log. */
    METADATA,
    /** A file under the table's location that no metadata of the table reaches. */
    ORPHAN;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static FileKind fromWireName(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
  }

  /** What a run did, or what one step added. */
  public record Counts(
      long snapshotsExpired,
      long dataFiles,
      long deleteFiles,
      long manifests,
      long manifestLists,
      long statisticsFiles,
      long metadataFiles,
      long orphanFiles,
      long bytes) {
    public static final Counts NONE = new Counts(0, 0, 0, 0, 0, 0, 0, 0, 0);

    public static Counts expired(long snapshots) {
      return new Counts(snapshots, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** One deleted file of {@code kind} and {@code size} bytes. */
    public static Counts deleted(FileKind kind, long size) {
      return new Counts(
          0,
          kind == FileKind.DATA ? 1 : 0,
          kind == FileKind.DELETE ? 1 : 0,
          kind == FileKind.MANIFEST ? 1 : 0,
          kind == FileKind.MANIFEST_LIST ? 1 : 0,
          kind == FileKind.STATISTICS ? 1 : 0,
          kind == FileKind.METADATA ? 1 : 0,
          kind == FileKind.ORPHAN ? 1 : 0,
          size);
    }

    public Counts plus(Counts other) {
      return new Counts(
          snapshotsExpired + other.snapshotsExpired,
          dataFiles + other.dataFiles,
          deleteFiles + other.deleteFiles,
          manifests + other.manifests,
          manifestLists + other.manifestLists,
          statisticsFiles + other.statisticsFiles,
          metadataFiles + other.metadataFiles,
          orphanFiles + other.orphanFiles,
          bytes + other.bytes);
    }

    /** Every file deleted, of whatever kind. */
    public long files() {
      return dataFiles
          + deleteFiles
          + manifests
          + manifestLists
          + statisticsFiles
          + metadataFiles
          + orphanFiles;
    }
  }

  /** A file an expiry left unreachable, noted for deletion. */
  public record NotedFile(String path, FileKind kind, long size) {}
}
