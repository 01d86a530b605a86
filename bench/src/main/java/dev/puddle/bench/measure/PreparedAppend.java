package dev.puddle.bench.measure;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;

/**
 * An append whose files are written once, before any timing: the table's first append wrote its
 * manifest and manifest list, and every later commit adds a snapshot that names that manifest list
 * again. What a commit then costs is the server's part alone: one {@code updateTable} request, with
 * the requirements ({@code assert-table-uuid}, {@code assert-ref-snapshot-id}) and updates ({@code
 * add-snapshot}, {@code set-snapshot-ref}) that Iceberg's client sends for an append, and parsing
 * the response; the client writes no file.
 */
final class PreparedAppend {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TableOperations ops;
  private final String manifestList;

  private PreparedAppend(Table table) {
    this.ops = ((HasTableOperations) table).operations();
    this.manifestList = ops.refresh().currentSnapshot().manifestListLocation();
  }

  /** Appends once through {@code table}'s client, for the manifest list every commit reuses. */
  static PreparedAppend first(Table table) {
    table.newFastAppend().appendFile(Tables.fakeDataFile(table)).commit();
    return new PreparedAppend(table);
  }

  /** Commits through {@code table}'s client, reusing the manifest list of its current snapshot. */
  static PreparedAppend following(Table table) {
    return new PreparedAppend(table);
  }

  /**
   * One raw commit of a new snapshot on the version this client holds; its time in nanoseconds.
   *
   * @throws CommitFailedException if another writer moved the table first (the client then holds
   *     the version it refreshed to)
   */
  long commit() {
    TableMetadata base = ops.current();
    Snapshot snapshot = snapshot(base);
    TableMetadata next =
        TableMetadata.buildFrom(base)
            .addSnapshot(snapshot)
            .setBranchSnapshot(snapshot.snapshotId(), "main")
            .build();
    return time(base, next);
  }

  /**
   * One attempt as Iceberg's client makes it for an append ({@code SnapshotProducer}): refresh the
   * table, then commit a new snapshot on the version refreshed to.
   *
   * @throws CommitFailedException if another writer moved the table in between
   */
  void refreshAndCommit() {
    TableMetadata base = ops.refresh();
    Snapshot snapshot = snapshot(base);
    ops.commit(
        base,
        TableMetadata.buildFrom(base)
            .addSnapshot(snapshot)
            .setBranchSnapshot(snapshot.snapshotId(), "main")
            .build());
  }

  private long time(TableMetadata base, TableMetadata next) {
    long start = System.nanoTime();
    try {
      ops.commit(base, next);
    } catch (CommitFailedException e) {
      ops.refresh();
      throw e;
    }
    return System.nanoTime() - start;
  }

  private Snapshot snapshot(TableMetadata base) {
    ObjectNode snapshot = JSON.createObjectNode();
    snapshot.put("snapshot-id", ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE));
    if (base.currentSnapshot() != null) {
      snapshot.put("parent-snapshot-id", base.currentSnapshot().snapshotId());
    }
    snapshot.put("sequence-number", base.nextSequenceNumber());
    snapshot.put("timestamp-ms", System.currentTimeMillis());
    snapshot.put("manifest-list", manifestList);
    snapshot.put("schema-id", base.currentSchemaId());
    ObjectNode summary = snapshot.putObject("summary");
    summary.put("operation", "append");
    summary.put("added-data-files", "1");
    summary.put("added-records", "10");
    return SnapshotParser.fromJson(snapshot.toString());
  }
}
