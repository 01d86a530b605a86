package dev.puddle.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;

/**
 * Small text files written and read through a FileIO, so that a test sees whose credentials or
 * signatures that FileIO's requests carry.
 */
final class TextFiles {
  private TextFiles() {}

  /** Writes {@code content} as a data file of the table, through the table's own FileIO. */
  static DataFile writeDataFile(Table table, String name, String content) {
    String path = table.locationProvider().newDataLocation(name + ".csv");
    write(table.io(), path, content);
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(path)
        .withFormat(FileFormat.AVRO)
        .withFileSizeInBytes(content.length())
        .withRecordCount(3)
        .build();
  }

  static void write(FileIO io, String path, String content) {
    try (OutputStream out = io.newOutputFile(path).createOrOverwrite()) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Each data file the table's current snapshot plans, in planning order, with what it holds: read
   * through the table's own FileIO.
   */
  static List<Map.Entry<String, String>> planned(Table table) throws IOException {
    List<Map.Entry<String, String>> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        String path = task.file().location();
        files.add(Map.entry(path, read(table.io(), path)));
      }
    }
    return files;
  }

  static String read(FileIO io, String path) throws IOException {
    try (InputStream in = io.newInputFile(path).newStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
