package dev.puddle.core.maintenance;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * Computes a table's snapshot expiry with iceberg-core's own {@code ExpireSnapshots}, so its ref
 * and retention rules are Iceberg's exactly: per-ref {@code max-ref-age-ms}, {@code
 * max-snapshot-age-ms} and {@code min-snapshots-to-keep} first, then the table's {@code
 * history.expire.*} properties, main never removed, a branch's ancestors kept as its retention
 * says. The expiry runs against a copy of the metadata carrying the warehouse's defaults; the refs
 * and snapshots it removes are then removed from the metadata itself, so a commit changes nothing
 * else (not the table's properties).
 */
final class SnapshotExpiry {
  private SnapshotExpiry() {}

  /**
   * {@code current} with the snapshots and refs that retention lets go removed; {@code current}
   * itself (no changes) if there are none.
   */
  static TableMetadata expire(TableMetadata current, Map<String, String> defaults, FileIO io) {
    if (current.snapshots().isEmpty()) {
      return current;
    }
    TableMetadata effective =
        defaults.isEmpty()
            ? current
            : TableMetadata.buildFrom(current).setProperties(defaults).build();
    Planned planned = new Planned(effective, io);
    new BaseTable(planned, "expiry").expireSnapshots().cleanExpiredFiles(false).commit();
    TableMetadata expired = planned.result;
    if (expired == null) {
      return current;
    }
    Set<Long> removed = new HashSet<>();
    current.snapshots().forEach(snapshot -> removed.add(snapshot.snapshotId()));
    expired.snapshots().stream().map(Snapshot::snapshotId).forEach(removed::remove);
    Set<String> refs = new HashSet<>(current.refs().keySet());
    refs.removeAll(expired.refs().keySet());
    if (removed.isEmpty() && refs.isEmpty()) {
      return current;
    }
    TableMetadata.Builder builder = TableMetadata.buildFrom(current);
    refs.forEach(builder::removeRef);
    builder.removeSnapshots(removed);
    return builder.build();
  }

  /**
   * The operations {@code ExpireSnapshots} plans against: the metadata given, and a commit that
   * only keeps what it would have committed.
   */
  private static final class Planned implements TableOperations {
    private final TableMetadata base;
    private final FileIO io;
    private TableMetadata result;

    Planned(TableMetadata base, FileIO io) {
      this.base = base;
      this.io = io;
    }

    @Override
    public TableMetadata current() {
      return base;
    }

    @Override
    public TableMetadata refresh() {
      return base;
    }

    @Override
    public void commit(TableMetadata planBase, TableMetadata metadata) {
      result = metadata;
    }

    @Override
    public FileIO io() {
      return io;
    }

    @Override
    public String metadataFileLocation(String fileName) {
      throw new UnsupportedOperationException("Expiry planning writes no file");
    }

    @Override
    public LocationProvider locationProvider() {
      return LocationProviders.locationsFor(base.location(), base.properties());
    }
  }
}
