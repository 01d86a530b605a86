package dev.puddle.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;

/** What a table's metadata says, read with Iceberg's own API, and data files made up for it. */
final class TableFiles {
  private TableFiles() {}

  static TableMetadata metadata(Table table) {
    return ((HasTableOperations) table).operations().current();
  }

  /** The live data files of the table's current snapshot, by Iceberg's scan planning. */
  static List<String> dataFiles(Table table) {
    return planned(table.newScan());
  }

  /** The live data files of a snapshot, by Iceberg's scan planning. */
  static List<String> dataFiles(Table table, long snapshotId) {
    return planned(table.newScan().useSnapshot(snapshotId));
  }

  private static List<String> planned(TableScan scan) {
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      return StreamSupport.stream(tasks.spliterator(), false)
          .map(task -> task.file().location())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A data file that exists in metadata only, as in Iceberg's own catalog tests. */
  static DataFile metadataOnly(String name) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("s3://" + LocalTwin.BUCKET + "/data/" + name + ".parquet")
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }
}
