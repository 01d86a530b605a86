package dev.puddle.engines.trino;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.avro.Avro;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;

/** The "writer" engine: appends rows to an unpartitioned table with Iceberg's Java API alone. */
final class IcebergWriter {
  private IcebergWriter() {}

  /**
   * Writes {@code ids} (with {@code total = id * 1.5}) to one Avro data file and commits it. Avro,
   * because Trino's class path has Iceberg's generic Avro writer but not Parquet's Hadoop writer.
   */
  static void append(Table table, List<Long> ids) {
    String path =
        table.locationProvider().newDataLocation("writer-" + UUID.randomUUID() + ".avro");
    DataWriter<Record> writer;
    try {
      writer =
          Avro.writeData(table.io().newOutputFile(path))
              .schema(table.schema())
              .createWriterFunc(org.apache.iceberg.data.avro.DataWriter::create)
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
