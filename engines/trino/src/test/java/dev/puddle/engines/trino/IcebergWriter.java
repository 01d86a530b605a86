package dev.puddle.engines.trino;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;

/** The "writer" engine: appends rows to an unpartitioned table with Iceberg's Java API alone. */
final class IcebergWriter {
  private IcebergWriter() {}

  /** Writes {@code ids} (with {@code total = id * 1.5}) to one Parquet file and commits it. */
  static void append(Table table, List<Long> ids) {
    String path = table.locationProvider().newDataLocation("writer-" + UUID.randomUUID() + ".parquet");
    DataWriter<Record> writer;
    try {
      writer =
          Parquet.writeData(table.io().newOutputFile(path))
              .schema(table.schema())
              .createWriterFunc(GenericParquetWriter::buildWriter)
              .withSpec(table.spec())
              .build();
      try (writer) {
        for (long id : ids) {
          Record row = GenericRecord.create(table.schema());
          row.setField("id", id);
          row.setField("total", id * 1.5);
          writer.write(row);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataFile file = writer.toDataFile();
    table.newAppend().appendFile(file).commit();
  }
}
