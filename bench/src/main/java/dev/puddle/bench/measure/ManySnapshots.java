package dev.puddle.bench.measure;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.bench.Side;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;

/**
 * A table with thousands of snapshots, made without committing thousands of times: its metadata is
 * built with iceberg-core's {@link TableMetadata} builder (snapshots whose manifest lists are never
 * written: loading a table does not read them), written to the side's warehouse, and registered.
 */
public final class ManySnapshots {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ManySnapshots() {}

  /** Writes the metadata under the side's warehouse and registers it as {@code table}. */
  public static void register(Side side, TableIdentifier table, int snapshots) throws Exception {
    String location =
        side.warehouseLocation()
            + "/"
            + table.namespace()
            + "/"
            + table.name()
            + "-"
            + UUID.randomUUID();
    TableMetadata metadata = build(location, snapshots);
    String metadataFile = location + "/metadata/00000-" + UUID.randomUUID() + ".metadata.json";
    try (FileIO io =
        CatalogUtil.loadFileIO(
            side.clientProperties().get(CatalogProperties.FILE_IO_IMPL),
            side.clientProperties(),
            null)) {
      TableMetadataParser.write(metadata, io.newOutputFile(metadataFile));
    }
    side.client().registerTable(table, metadataFile);
  }

  static TableMetadata build(String location, int snapshots) {
    TableMetadata empty =
        TableMetadata.newTableMetadata(
            Tables.SCHEMA, PartitionSpec.unpartitioned(), location, Map.of());
    TableMetadata.Builder builder = TableMetadata.buildFrom(empty);
    long firstTimestamp = System.currentTimeMillis() - snapshots * 60_000L;
    long parent = -1;
    for (int i = 1; i <= snapshots; i++) {
      long id = 1_000_000L + i;
      ObjectNode snapshot = JSON.createObjectNode();
      snapshot.put("snapshot-id", id);
      if (parent > 0) {
        snapshot.put("parent-snapshot-id", parent);
      }
      snapshot.put("sequence-number", i);
      snapshot.put("timestamp-ms", firstTimestamp + i * 60_000L);
      snapshot.put(
          "manifest-list", location + "/metadata/snap-" + id + "-1-" + UUID.randomUUID() + ".avro");
      snapshot.put("schema-id", empty.currentSchemaId());
      // what an append of one file leaves in a summary, so the metadata has a realistic size
      ObjectNode summary = snapshot.putObject("summary");
      summary.put("operation", "append");
      summary.put("added-data-files", "1");
      summary.put("added-records", "10");
      summary.put("added-files-size", "4096");
      summary.put("changed-partition-count", "1");
      summary.put("total-records", String.valueOf(10L * i));
      summary.put("total-files-size", String.valueOf(4096L * i));
      summary.put("total-data-files", String.valueOf(i));
      summary.put("total-delete-files", "0");
      summary.put("total-position-deletes", "0");
      summary.put("total-equality-deletes", "0");
      builder.addSnapshot(SnapshotParser.fromJson(snapshot.toString()));
      parent = id;
    }
    builder.setBranchSnapshot(parent, "main");
    return builder.build();
  }
}
