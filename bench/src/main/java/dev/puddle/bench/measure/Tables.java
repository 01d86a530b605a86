package dev.puddle.bench.measure;

import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.types.Types;

/** The schema every benchmark table has, and the data files appends add. */
public final class Tables {
  /** A small, typical schema: what matters here is the catalog, not the table's width. */
  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer", Types.StringType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.optional(4, "ordered_at", Types.TimestampType.withZone()));

  private Tables() {}

  /**
   * A data file that is never written: commits only record it in a manifest, and nothing reads it
   * back.
   */
  public static DataFile fakeDataFile(Table table) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/" + UUID.randomUUID() + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(4096)
        .withRecordCount(10)
        .build();
  }

  /** Creates the namespace unless it exists. */
  public static void ensureNamespace(SupportsNamespaces catalog, Namespace namespace) {
    if (!catalog.namespaceExists(namespace)) {
      catalog.createNamespace(namespace);
    }
  }
}
