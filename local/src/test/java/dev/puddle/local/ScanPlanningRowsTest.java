package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Server-side scan planning read through: the rows an engine reads from the tasks the catalog plans
 * are the rows it reads when it plans for itself, and the rows that were written, minus the deleted
 * ones. Unlike {@link ScanPlanningTest}, whose files are metadata only, these data and delete files
 * are real Avro files, so a wrong residual, a lost delete file or a task of the wrong snapshot
 * changes the rows read, not just the plan.
 */
// GenericAppenderFactory is deprecated in Iceberg 1.11 but still the shortest way to write
// data, position delete and equality delete files of one spec with the generic writers
@SuppressWarnings("deprecation")
class ScanPlanningRowsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "amount", Types.LongType.get()));

  private static final TableIdentifier ID = TableIdentifier.of("r", "orders");

  private static RESTCatalog server;
  private static RESTCatalog client;

  /** The snapshots of the table: after the first append, the second, and the deletes. */
  private static long first;

  private static long second;
  private static long deleted;

  @BeforeAll
  static void table() {
    // pages of two tasks: every scan here of more than two files is a stored plan, fetched
    String warehouse =
        TestTwin.newWarehouse(
            "planning_rows",
            Map.of("scan-planning-mode", "server", "scan-planning.tasks-per-page", "2"));
    server = TestTwin.restCatalog(warehouse, Map.of());
    client = TestTwin.restCatalog(warehouse, Map.of("scan-planning-mode", "client"));
    server.createNamespace(Namespace.of("r"));
    PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("category").build();
    Table table = server.createTable(ID, SCHEMA, spec, Map.of("format-version", "2"));

    // ids 1-5 in a and 6-10 in b, then 11-15 in c and 16-20 in a; amount is id * 10
    DataFile a1 = dataFile(table, "a", 1, 5);
    table.newAppend().appendFile(a1).appendFile(dataFile(table, "b", 6, 10)).commit();
    first = table.currentSnapshot().snapshotId();
    table
        .newAppend()
        .appendFile(dataFile(table, "c", 11, 15))
        .appendFile(dataFile(table, "a", 16, 20))
        .commit();
    second = table.currentSnapshot().snapshotId();
    // rows 0 and 2 of the first file of a (ids 1 and 3) by position, id 7 of b by equality
    table
        .newRowDelta()
        .addDeletes(positionDeletes(table, a1, 0, 2))
        .addDeletes(equalityDeletes(table, "b", 7))
        .commit();
    deleted = table.currentSnapshot().snapshotId();
  }

  @AfterAll
  static void close() throws IOException {
    server.close();
    client.close();
  }

  @Test
  void theServerPlansItsOwnScans() {
    assertThat(server.loadTable(ID).getClass().getSimpleName()).isEqualTo("RESTTable");
    assertThat(client.loadTable(ID).getClass().getSimpleName()).isNotEqualTo("RESTTable");
    // IcebergGenerics reads the tasks of the table's own scan: the server's plan, page by page
    assertThat(server.loadTable(ID).newScan().getClass().getSimpleName())
        .isEqualTo("RESTTableScan");
  }

  @Test
  void allRowsLessTheDeletedOnes() {
    assertSameRows(
        null, Expressions.alwaysTrue(), id -> id != 1 && id != 3 && id != 7, "id", "category");
  }

  @Test
  void aFilterWithAResidualIsAppliedToTheRows() {
    // the partition filter prunes b and c; amount > 30 is left as a residual on the files of a
    Expression filter =
        Expressions.and(Expressions.equal("category", "a"), Expressions.greaterThan("amount", 30L));
    assertSameRows(null, filter, id -> id > 3 && (id <= 5 || id >= 16), "id", "amount");
    // a residual on a column of data alone, across every partition, with the deletes
    assertSameRows(
        null,
        Expressions.lessThan("amount", 80L),
        id -> id < 8 && id != 1 && id != 3 && id != 7,
        "id",
        "category",
        "amount");
  }

  @Test
  void timeTravelReadsTheSnapshotsRows() {
    assertSameRows(first, Expressions.alwaysTrue(), id -> id <= 10, "id", "category");
    assertSameRows(second, Expressions.alwaysTrue(), id -> true, "id", "category");
    assertSameRows(
        second, Expressions.equal("category", "a"), id -> id <= 5 || id >= 16, "id", "amount");
    assertSameRows(
        deleted,
        Expressions.equal("category", "b"),
        id -> id >= 6 && id <= 10 && id != 7,
        "id",
        "category");
  }

  /**
   * Reads {@code columns} of the rows matching {@code filter} (of {@code snapshot}, or the current
   * one) through both catalogs: both must read the rows written whose id {@code expected} keeps.
   */
  private static void assertSameRows(
      Long snapshot, Expression filter, Predicate<Long> expected, String... columns) {
    List<String> fromServer = rows(server, snapshot, filter, columns);
    List<String> fromClient = rows(client, snapshot, filter, columns);
    List<String> written = new ArrayList<>();
    for (long id = 1; id <= 20; id++) {
      if (expected.test(id)) {
        written.add(row(written(id), columns));
      }
    }
    assertThat(fromServer).isNotEmpty().isEqualTo(fromClient).isEqualTo(sorted(written));
  }

  private static List<String> rows(
      RESTCatalog catalog, Long snapshot, Expression filter, String... columns) {
    Table table = catalog.loadTable(ID);
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table).where(filter).select(columns);
    if (snapshot != null) {
      scan = scan.useSnapshot(snapshot);
    }
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = scan.build()) {
      for (Record record : records) {
        rows.add(row(record, columns));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sorted(rows);
  }

  private static List<String> sorted(List<String> rows) {
    // ids are unique, so a sorted list keeps any duplicate row a wrong plan would read twice
    List<String> sorted = new ArrayList<>(rows);
    sorted.sort(null);
    assertThat(new TreeSet<>(sorted)).hasSameSizeAs(sorted);
    return sorted;
  }

  private static String row(Record record, String... columns) {
    StringBuilder row = new StringBuilder();
    for (String column : columns) {
      Object value = record.getField(column);
      row.append(column).append('=').append(value instanceof Long l ? "%03d".formatted(l) : value);
      row.append(' ');
    }
    return row.toString().trim();
  }

  private static Record written(long id) {
    Record record = GenericRecord.create(SCHEMA);
    record.setField("id", id);
    record.setField("category", id <= 5 || id >= 16 ? "a" : id <= 10 ? "b" : "c");
    record.setField("amount", id * 10);
    return record;
  }

  private static PartitionKey partition(Table table, String category) {
    PartitionKey key = new PartitionKey(table.spec(), SCHEMA);
    Record record = GenericRecord.create(SCHEMA);
    record.setField("category", category);
    key.partition(record);
    return key;
  }

  private static EncryptedOutputFile newFile(Table table, PartitionKey partition, String kind) {
    String location =
        table
            .locationProvider()
            .newDataLocation(table.spec(), partition, kind + "-" + UUID.randomUUID() + ".avro");
    return EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location));
  }

  /** A data file of category {@code category} with the rows of ids {@code from} to {@code to}. */
  private static DataFile dataFile(Table table, String category, long from, long to) {
    PartitionKey partition = partition(table, category);
    DataWriter<Record> writer =
        new GenericAppenderFactory(SCHEMA, table.spec())
            .newDataWriter(newFile(table, partition, "data"), FileFormat.AVRO, partition);
    try (writer) {
      for (long id = from; id <= to; id++) {
        writer.write(written(id));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDataFile();
  }

  private static DeleteFile positionDeletes(Table table, DataFile file, long... positions) {
    PartitionKey partition = partition(table, "a");
    PositionDeleteWriter<Record> writer =
        new GenericAppenderFactory(SCHEMA, table.spec())
            .newPosDeleteWriter(newFile(table, partition, "pos"), FileFormat.AVRO, partition);
    try (writer) {
      for (long position : positions) {
        writer.write(PositionDelete.<Record>create().set(file.location(), position));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  private static DeleteFile equalityDeletes(Table table, String category, long... ids) {
    Schema deleteSchema = SCHEMA.select("id");
    PartitionKey partition = partition(table, category);
    EqualityDeleteWriter<Record> writer =
        new GenericAppenderFactory(SCHEMA, table.spec(), new int[] {1}, deleteSchema, null)
            .newEqDeleteWriter(newFile(table, partition, "eq"), FileFormat.AVRO, partition);
    try (writer) {
      for (long id : ids) {
        Record record = GenericRecord.create(deleteSchema);
        record.setField("id", id);
        writer.write(record);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }
}
