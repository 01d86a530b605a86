package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;
import java.util.function.UnaryOperator;
import java.util.stream.LongStream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.IncrementalAppendScan;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.DVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;
import org.apache.iceberg.util.PartitionUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Server-side scan planning read through, table shape by table shape: version 3 deletion vectors,
 * partition spec evolution, schema evolution (old files read with the new schema, and with the
 * snapshot's own), branches and tags, incremental append scans, and a scan large enough to be left
 * to the planning worker. Each reads real data and delete files through Iceberg's generic readers
 * twice, once from the catalog's plan and once from the client's own, and both must give the rows
 * that were written, less the deleted ones.
 */
// GenericAppenderFactory is deprecated in Iceberg 1.11 but still the shortest way to write
// data, position delete and equality delete files of one spec with the generic writers
@SuppressWarnings("deprecation")
class ScanPlanningShapesRowsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "amount", Types.LongType.get()));

  private static final Namespace NAMESPACE = Namespace.of("s");

  /** The data files a scan may count before it is left to the planning worker. */
  private static final int ASYNC_DATA_FILES = 10;

  private static String warehouse;
  private static RESTCatalog server;
  private static RESTCatalog client;

  private static String asyncWarehouse;
  private static RESTCatalog asyncServer;
  private static RESTCatalog asyncClient;

  @BeforeAll
  static void catalogs() {
    // pages of two tasks: every scan here of more than two files is a stored plan, fetched
    warehouse =
        TestTwin.newWarehouse(
            "planning_shapes",
            Map.of("scan-planning-mode", "server", "scan-planning.tasks-per-page", "2"));
    server = TestTwin.restCatalog(warehouse, Map.of());
    client = TestTwin.restCatalog(warehouse, Map.of("scan-planning-mode", "client"));
    server.createNamespace(NAMESPACE);
    asyncWarehouse =
        TestTwin.newWarehouse(
            "planning_shapes_async",
            Map.of(
                "scan-planning-mode", "server",
                "scan-planning.tasks-per-page", "7",
                "scan-planning.async-data-files", String.valueOf(ASYNC_DATA_FILES)));
    asyncServer = TestTwin.restCatalog(asyncWarehouse, Map.of());
    asyncClient = TestTwin.restCatalog(asyncWarehouse, Map.of("scan-planning-mode", "client"));
    asyncServer.createNamespace(NAMESPACE);
  }

  @AfterAll
  static void close() throws IOException {
    server.close();
    client.close();
    asyncServer.close();
    asyncClient.close();
  }

  @Test
  void deletionVectorsOfAVersion3Table() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "dv");
    Table table =
        server.createTable(
            id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "3"));
    DataFile low = dataFile(table, 1, 10, ScanPlanningShapesRowsTest::values);
    DataFile high = dataFile(table, 11, 20, ScanPlanningShapesRowsTest::values);
    table.newAppend().appendFile(low).appendFile(high).commit();
    // ids 1 and 5 of the first file, 20 of the second, in one Puffin file of two vectors
    List<DeleteFile> vectors =
        deletionVectors(table, Map.of(low, new long[] {0, 4}, high, new long[] {9}));
    assertThat(vectors)
        .extracting(DeleteFile::location)
        .containsOnly(vectors.getFirst().location());
    RowDelta firstDelta = table.newRowDelta();
    vectors.forEach(firstDelta::addDeletes);
    firstDelta.commit();
    DeleteFile lowDeletes =
        vectors.stream()
            .filter(vector -> vector.referencedDataFile().equals(low.location()))
            .findFirst()
            .orElseThrow();
    long firstDeletes = table.currentSnapshot().snapshotId();
    // a file has one vector: deleting id 2 too replaces the first file's vector with a larger one
    table
        .newRowDelta()
        .validateFromSnapshot(firstDeletes)
        .removeDeletes(lowDeletes)
        .addDeletes(deletionVectors(table, Map.of(low, new long[] {0, 1, 4})).getFirst())
        .commit();

    assertSameRows(
        id,
        scan -> scan,
        range(1, 20, i -> i != 1 && i != 2 && i != 5 && i != 20),
        ScanPlanningShapesRowsTest::original);
    assertSameRows(
        id,
        scan -> scan.filter(Expressions.greaterThan("amount", 40L)).select("id", "amount"),
        range(5, 20, i -> i != 5 && i != 20),
        i -> row("id", i, "amount", i * 10));
    assertSameRows(
        id,
        scan -> scan.useSnapshot(firstDeletes),
        range(1, 20, i -> i != 1 && i != 5 && i != 20),
        ScanPlanningShapesRowsTest::original);
  }

  @Test
  void filesOfEverySpecOfAnEvolvedPartitioning() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "respecced");
    Table table =
        server.createTable(
            id,
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("category").build(),
            Map.of("format-version", "2"));
    // spec 0, by category: 1-5 in a, 6-10 in b; id 7 deleted by equality in b's partition
    table
        .newAppend()
        .appendFile(dataFile(table, 1, 5, ScanPlanningShapesRowsTest::values))
        .appendFile(dataFile(table, 6, 10, ScanPlanningShapesRowsTest::values))
        .commit();
    PartitionSpec byCategory = table.spec();
    table.newRowDelta().addDeletes(equalityDeletes(table, byCategory, values(7), 7)).commit();
    // spec 1, by id / 100: 11-20 in one file of categories c and a; its row of id 12 deleted
    table.updateSpec().removeField("category").addField(Expressions.truncate("id", 100)).commit();
    DataFile respecced = dataFile(table, 11, 20, ScanPlanningShapesRowsTest::values);
    table.newAppend().appendFile(respecced).commit();
    table.newRowDelta().addDeletes(positionDeletes(table, respecced, 1)).commit();
    // deletes of spec 0's partition b, written after spec 1's file: 8 goes, 14 of spec 1 stays
    table.newRowDelta().addDeletes(equalityDeletes(table, byCategory, values(8), 8, 14)).commit();
    assertThat(table.specs()).hasSize(2);

    LongPredicate live = i -> i != 7 && i != 8 && i != 12;
    assertSameRows(id, scan -> scan, range(1, 20, live), ScanPlanningShapesRowsTest::original);
    // spec 0 prunes b by its partition; spec 1's file is left the filter as its residual
    assertSameRows(
        id,
        scan -> scan.filter(Expressions.equal("category", "a")),
        range(1, 20, i -> live.test(i) && category(i).equals("a")),
        ScanPlanningShapesRowsTest::original);
    assertSameRows(
        id,
        scan ->
            scan.filter(
                    Expressions.or(
                        Expressions.equal("category", "b"), Expressions.greaterThan("id", 17L)))
                .select("id", "category"),
        range(1, 20, i -> live.test(i) && (category(i).equals("b") || i > 17)),
        i -> row("id", i, "category", category(i)));
  }

  @Test
  void oldFilesReadWithTheNewSchemaAndSnapshotsWithTheirOwn() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "evolved");
    Table table =
        server.createTable(
            id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
    table
        .newAppend()
        .appendFile(dataFile(table, 1, 10, ScanPlanningShapesRowsTest::values))
        .commit();
    long original = table.currentSnapshot().snapshotId();
    table.manageSnapshots().createTag("original", original).commit();
    // renamed, added: the files of 11-20 have a note
    table
        .updateSchema()
        .renameColumn("amount", "total")
        .addColumn("note", Types.StringType.get())
        .commit();
    table
        .newAppend()
        .appendFile(
            dataFile(
                table,
                11,
                20,
                i -> Map.of("id", i, "category", category(i), "total", i * 10, "note", "n" + i)))
        .commit();
    long noted = table.currentSnapshot().snapshotId();
    // dropped: the files of 21-25 have no category
    table.updateSchema().deleteColumn("category").commit();
    table
        .newAppend()
        .appendFile(dataFile(table, 21, 25, i -> Map.of("id", i, "total", i * 10, "note", "n" + i)))
        .commit();
    // every old row of id 3 deleted by equality, on the column the current schema keeps
    table
        .newRowDelta()
        .addDeletes(equalityDeletes(table, table.spec(), Map.of("id", 3L), 3))
        .commit();

    // the table's schema: category gone, amount read as total, note null in the oldest files
    LongFunction<String> current = i -> row("id", i, "total", i * 10, "note", note(i));
    assertSameRows(id, scan -> scan, range(1, 25, i -> i != 3), current);
    assertSameRows(
        id,
        scan -> scan.filter(Expressions.greaterThan("total", 95L)),
        range(10, 25, i -> true),
        current);
    assertSameRows(
        id,
        scan -> scan.filter(Expressions.isNull("note")).select("id", "total"),
        range(1, 10, i -> i != 3),
        i -> row("id", i, "total", i * 10, "note", null));
    // a snapshot reads with its own schema: the first, by id or by tag, still has amount
    LongFunction<String> first = i -> row("id", i, "category", category(i), "amount", i * 10);
    assertSameRows(id, scan -> scan.useSnapshot(original), range(1, 10, i -> true), first);
    assertSameRows(
        id,
        scan -> scan.useRef("original").filter(Expressions.lessThan("amount", 50L)),
        range(1, 4, i -> true),
        first);
    // the second has total and note, and category, which every file of it has
    assertSameRows(
        id,
        scan -> scan.useSnapshot(noted).filter(Expressions.notNull("note")),
        range(11, 20, i -> true),
        i -> row("id", i, "category", category(i), "total", i * 10, "note", note(i)));
  }

  @Test
  void branchesReadWithTheTableSchemaAndTagsWithTheirSnapshots() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "refs");
    Table table =
        server.createTable(
            id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
    table
        .newAppend()
        .appendFile(dataFile(table, 1, 10, ScanPlanningShapesRowsTest::values))
        .commit();
    table.manageSnapshots().createTag("v1", table.currentSnapshot().snapshotId()).commit();
    DataFile second = dataFile(table, 11, 20, ScanPlanningShapesRowsTest::values);
    table.newAppend().appendFile(second).commit();
    long forked = table.currentSnapshot().snapshotId();
    table.manageSnapshots().createBranch("audit", forked).commit();
    // main deletes id 3; audit deletes id 11 and appends 21-30, after amount became total
    table
        .newRowDelta()
        .addDeletes(equalityDeletes(table, table.spec(), Map.of("id", 3L), 3))
        .commit();
    table.updateSchema().renameColumn("amount", "total").commit();
    table.newRowDelta().toBranch("audit").addDeletes(positionDeletes(table, second, 0)).commit();
    table
        .newAppend()
        .toBranch("audit")
        .appendFile(
            dataFile(table, 21, 30, i -> Map.of("id", i, "category", category(i), "total", i * 10)))
        .commit();

    LongFunction<String> renamed = i -> row("id", i, "category", category(i), "total", i * 10);
    assertSameRows(id, scan -> scan, range(1, 20, i -> i != 3), renamed);
    assertSameRows(id, scan -> scan.useRef("main"), range(1, 20, i -> i != 3), renamed);
    assertSameRows(id, scan -> scan.useRef("audit"), range(1, 30, i -> i != 11), renamed);
    assertSameRows(
        id,
        scan -> scan.useRef("audit").filter(Expressions.greaterThan("total", 150L)).select("id"),
        range(16, 30, i -> true),
        i -> row("id", i, "total", i * 10));
    // a tag, and the snapshot the branch was forked from, read with their own schema
    assertSameRows(
        id,
        scan -> scan.useRef("v1"),
        range(1, 10, i -> true),
        ScanPlanningShapesRowsTest::original);
    assertSameRows(
        id,
        scan -> scan.useSnapshot(forked).filter(Expressions.lessThan("amount", 40L)),
        range(1, 3, i -> true),
        ScanPlanningShapesRowsTest::original);
  }

  @Test
  void incrementalAppendScansReadTheRowsAppendedAfterTheirStart() throws IOException {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "incremental");
    Table table =
        server.createTable(
            id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
    List<Long> snapshots = new ArrayList<>();
    for (long i = 0; i < 5; i++) {
      // 1-5, 6-10, ... 21-25, each appended in two files by two commits
      table
          .newAppend()
          .appendFile(dataFile(table, i * 5 + 1, i * 5 + 3, ScanPlanningShapesRowsTest::values))
          .commit();
      table
          .newAppend()
          .appendFile(dataFile(table, i * 5 + 4, i * 5 + 5, ScanPlanningShapesRowsTest::values))
          .commit();
      snapshots.add(table.currentSnapshot().snapshotId());
    }

    // Iceberg's client plans an incremental scan itself even where the server plans, so the
    // catalog's plan of one is asked for over HTTP and its tasks read as the client reads any
    long from = snapshots.get(0);
    long to = snapshots.get(3);
    assertSameIncrementalRows(id, from, to, Expressions.alwaysTrue(), range(6, 20, i -> true));
    assertSameIncrementalRows(
        id, from, to, Expressions.greaterThan("amount", 125L), range(13, 20, i -> true));
    assertSameIncrementalRows(
        id, snapshots.get(3), snapshots.get(4), Expressions.alwaysTrue(), range(21, 25, i -> true));
  }

  @Test
  void aScanLeftToThePlanningWorkerReadsTheSameRows() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "large");
    Table table =
        asyncServer.createTable(
            id,
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("category").build(),
            Map.of("format-version", "2"));
    // 30 files of 10 rows, three times the threshold, each appended by a commit of its own
    List<DataFile> files = new ArrayList<>();
    for (long low = 1; low <= 300; low += 10) {
      DataFile file = dataFile(table, low, low + 9, ScanPlanningShapesRowsTest::large);
      table.newAppend().appendFile(file).commit();
      files.add(file);
    }
    // ids 41 and 50 by position; 105 and 161 of k1 by equality, and 7, which is not of k1
    table
        .newRowDelta()
        .addDeletes(positionDeletes(table, files.get(4), 0, 9))
        .addDeletes(equalityDeletes(table, table.spec(), large(101), 105, 161, 7))
        .commit();

    // the scan is not planned within its request: it is submitted to the planning worker
    String plan = tablePath(asyncWarehouse, id) + "/plan";
    JsonNode submitted = post(plan, "{}");
    assertThat(submitted.get("status").asText()).isEqualTo("submitted");
    send("DELETE", plan + "/" + submitted.get("plan-id").asText(), null);

    // Iceberg's client polls until the worker has stored the plan's pages, then fetches them
    LongPredicate live = i -> i != 41 && i != 50 && i != 105 && i != 161;
    LongFunction<String> expected = i -> row(large(i), SCHEMA);
    assertSameRows(asyncServer, asyncClient, id, scan -> scan, range(1, 300, live), expected);
    assertSameRows(
        asyncServer,
        asyncClient,
        id,
        scan ->
            scan.filter(
                Expressions.and(
                    Expressions.equal("category", "k1"), Expressions.greaterThan("amount", 1000L))),
        range(101, 300, i -> live.test(i) && large(i).get("category").equals("k1")),
        expected);
  }

  // ---- reading

  /**
   * Reads the rows of {@code refine}'s scan of the table through both catalogs with Iceberg's
   * generic readers: both must read {@code expected}'s row of every id of {@code ids}.
   */
  private static void assertSameRows(
      TableIdentifier id,
      UnaryOperator<TableScan> refine,
      List<Long> ids,
      LongFunction<String> expected) {
    assertSameRows(server, client, id, refine, ids, expected);
  }

  private static void assertSameRows(
      RESTCatalog server,
      RESTCatalog client,
      TableIdentifier id,
      UnaryOperator<TableScan> refine,
      List<Long> ids,
      LongFunction<String> expected) {
    Table planned = server.loadTable(id);
    assertThat(refine.apply(planned.newScan()).getClass().getSimpleName())
        .isEqualTo("RESTTableScan");
    List<String> fromServer = read(planned, refine);
    List<String> fromClient = read(client.loadTable(id), refine);
    List<String> written = sorted(ids.stream().map(expected::apply).toList());
    assertThat(fromServer).isNotEmpty().isEqualTo(fromClient).isEqualTo(written);
  }

  /**
   * The rows {@link IcebergGenerics} reads from {@code refine}'s scan of {@code table}, each with
   * the columns of the scan's schema (the selected ones and the filter's). Its builder cannot name
   * a ref, so it is handed the table with its {@code newScan} refined.
   */
  private static List<String> read(Table table, UnaryOperator<TableScan> refine) {
    Table refined =
        (Table)
            Proxy.newProxyInstance(
                Table.class.getClassLoader(),
                new Class<?>[] {Table.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("newScan") && method.getParameterCount() == 0) {
                    return refine.apply(table.newScan());
                  }
                  try {
                    return method.invoke(table, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    Schema projection = refine.apply(table.newScan()).schema();
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(refined).build()) {
      for (Record record : records) {
        rows.add(row(record, projection));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sorted(rows);
  }

  /**
   * An incremental append scan from {@code from} (exclusive) to {@code to}, planned by the catalog
   * over HTTP and by the client, both plans read task by task as Iceberg's generic reader reads
   * one, and the client's also with {@link IcebergGenerics}' own incremental scan.
   */
  private static void assertSameIncrementalRows(
      TableIdentifier id, long from, long to, Expression filter, List<Long> ids)
      throws IOException {
    Table table = client.loadTable(id);
    IncrementalAppendScan scan =
        table.newIncrementalAppendScan().fromSnapshotExclusive(from).toSnapshot(to).filter(filter);
    List<FileScanTask> own = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      tasks.forEach(own::add);
    }
    PlanTableScanRequest request =
        PlanTableScanRequest.builder()
            .withStartSnapshotId(from)
            .withEndSnapshotId(to)
            .withFilter(filter)
            .build();
    List<FileScanTask> planned = planOverHttp(id, table, request);
    assertThat(planned).hasSameSizeAs(own);

    List<String> generic = new ArrayList<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table).appendsBetween(from, to).where(filter).build()) {
      for (Record record : records) {
        generic.add(row(record, table.schema()));
      }
    }
    List<String> written = sorted(ids.stream().map(ScanPlanningShapesRowsTest::original).toList());
    assertThat(readTasks(table, scan.schema(), planned))
        .isNotEmpty()
        .isEqualTo(readTasks(table, scan.schema(), own))
        .isEqualTo(sorted(generic))
        .isEqualTo(written);
  }

  /**
   * The rows of {@code tasks}, read as Iceberg's generic reader reads a task (its package-private
   * {@code GenericReader}): the file projected with the columns its deletes need, the deletes
   * applied, then the residual.
   */
  private static List<String> readTasks(Table table, Schema projection, List<FileScanTask> tasks)
      throws IOException {
    List<String> rows = new ArrayList<>();
    for (FileScanTask task : tasks) {
      GenericDeleteFilter deletes =
          new GenericDeleteFilter(table.io(), task, table.schema(), projection);
      Schema required = deletes.requiredSchema();
      Map<Integer, ?> constants =
          PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
      Evaluator residual = new Evaluator(required.asStruct(), task.residual(), true);
      InternalRecordWrapper wrapper = new InternalRecordWrapper(required.asStruct());
      try (CloseableIterable<Record> records =
          deletes.filter(
              FormatModelRegistry.<Record, Object>readBuilder(
                      task.file().format(), Record.class, table.io().newInputFile(task.file()))
                  .project(required)
                  .idToConstant(constants)
                  .split(task.start(), task.length())
                  .filter(task.residual())
                  .build())) {
        for (Record record : records) {
          if (residual.eval(wrapper.wrap(record))) {
            rows.add(row(record, projection));
          }
        }
      }
    }
    return sorted(rows);
  }

  /** Plans over HTTP, following every plan task, as Iceberg's client would. */
  private static List<FileScanTask> planOverHttp(
      TableIdentifier id, Table table, PlanTableScanRequest request) {
    String path = tablePath(warehouse, id);
    JsonNode body = post(path + "/plan", PlanTableScanRequestParser.toJson(request));
    assertThat(body.get("status").asText()).isEqualTo("completed");
    PlanTableScanResponse response =
        PlanTableScanResponseParser.fromJson(body, table.specs(), true);
    List<FileScanTask> tasks = new ArrayList<>(response.fileScanTasks());
    for (String task : response.planTasks() == null ? List.<String>of() : response.planTasks()) {
      String taskBody = "{\"plan-task\":" + JsonUtil.mapper().valueToTree(task) + "}";
      tasks.addAll(
          FetchScanTasksResponseParser.fromJson(
                  post(path + "/tasks", taskBody), table.specs(), true)
              .fileScanTasks());
    }
    return tasks;
  }

  private static String tablePath(String warehouse, TableIdentifier id) {
    return "/v1/" + warehouse + "/namespaces/" + id.namespace() + "/tables/" + id.name();
  }

  private static JsonNode post(String path, String body) {
    return send("POST", path, body);
  }

  private static JsonNode send(String method, String path, String body) {
    HttpResponse<String> response = TwinHttp.root().send(method, path, body);
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 204);
    return TwinHttp.json(response);
  }

  // ---- rows

  private static List<Long> range(long from, long to, LongPredicate keep) {
    return LongStream.rangeClosed(from, to).filter(keep).boxed().toList();
  }

  private static List<String> sorted(List<String> rows) {
    // ids are unique, so a sorted list keeps any duplicate row a wrong plan would read twice
    List<String> sorted = new ArrayList<>(rows);
    sorted.sort(null);
    assertThat(new TreeSet<>(sorted)).hasSameSizeAs(sorted);
    return sorted;
  }

  /** A row as text: each column of {@code schema}, named, its value as the record has it. */
  private static String row(Record record, Schema schema) {
    return row(schema, record::getField);
  }

  private static String row(Map<String, ?> values, Schema schema) {
    return row(schema, values::get);
  }

  private static String row(Schema schema, Function<String, Object> values) {
    List<Object> pairs = new ArrayList<>();
    for (Types.NestedField field : schema.columns()) {
      pairs.add(field.name());
      pairs.add(values.apply(field.name()));
    }
    return row(pairs.toArray());
  }

  /** A row as text from its columns' names and values, in order. */
  private static String row(Object... namesAndValues) {
    StringBuilder row = new StringBuilder();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      Object value = namesAndValues[i + 1];
      row.append(namesAndValues[i])
          .append('=')
          .append(value instanceof Long l ? "%03d".formatted(l) : value)
          .append(' ');
    }
    return row.toString().trim();
  }

  private static String category(long id) {
    return id <= 5 || (id >= 16 && id <= 20) ? "a" : id <= 10 ? "b" : "c";
  }

  private static String note(long id) {
    return id > 10 ? "n" + id : null;
  }

  /** The row of {@code id} as {@link #SCHEMA} has it, with {@code amount} ten times the id. */
  private static Map<String, Object> values(long id) {
    return Map.of("id", id, "category", category(id), "amount", id * 10);
  }

  /** The row of {@code id} of the large table: ten rows a file, each of a category k0 to k2. */
  private static Map<String, Object> large(long id) {
    return Map.of("id", id, "category", "k" + (id - 1) / 10 % 3, "amount", id * 10);
  }

  private static String original(long id) {
    return row("id", id, "category", category(id), "amount", id * 10);
  }

  // ---- writing

  /**
   * A data file of the table's current schema and spec with the rows of ids {@code from} to {@code
   * to}, each with the values {@code values} gives; its partition is its first row's.
   */
  private static DataFile dataFile(
      Table table, long from, long to, LongFunction<Map<String, ?>> values) {
    Schema schema = table.schema();
    List<Record> records = new ArrayList<>();
    for (long i = from; i <= to; i++) {
      records.add(record(schema, values.apply(i)));
    }
    PartitionKey partition = partition(table, records.getFirst());
    DataWriter<Record> writer =
        new GenericAppenderFactory(schema, table.spec())
            .newDataWriter(
                newFile(table, table.spec(), partition, "data"), FileFormat.AVRO, partition);
    try (writer) {
      records.forEach(writer::write);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDataFile();
  }

  private static Record record(Schema schema, Map<String, ?> values) {
    Record record = GenericRecord.create(schema);
    values.forEach(record::setField);
    return record;
  }

  private static PartitionKey partition(Table table, Record row) {
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    key.partition(row);
    return key;
  }

  private static EncryptedOutputFile newFile(
      Table table, PartitionSpec spec, StructLike partition, String kind) {
    String name = kind + "-" + UUID.randomUUID() + ".avro";
    // an unpartitioned file's location has no partition path, not an empty one
    String location =
        spec.isUnpartitioned()
            ? table.locationProvider().newDataLocation(name)
            : table.locationProvider().newDataLocation(spec, partition, name);
    return EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location));
  }

  /** Position deletes of {@code positions} in {@code file}, of its spec and partition. */
  private static DeleteFile positionDeletes(Table table, DataFile file, long... positions) {
    PartitionSpec spec = table.specs().get(file.specId());
    PositionDeleteWriter<Record> writer =
        new GenericAppenderFactory(table.schema(), spec)
            .newPosDeleteWriter(
                newFile(table, spec, file.partition(), "pos"), FileFormat.AVRO, file.partition());
    try (writer) {
      for (long position : positions) {
        writer.write(PositionDelete.<Record>create().set(file.location(), position));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  /**
   * Equality deletes on {@code id} of {@code ids}, in {@code spec}'s partition of {@code
   * partitionRow}'s values.
   */
  private static DeleteFile equalityDeletes(
      Table table, PartitionSpec spec, Map<String, ?> partitionRow, long... ids) {
    Schema schema = table.schema();
    Schema deleteSchema = schema.select("id");
    PartitionKey partition = new PartitionKey(spec, schema);
    partition.partition(record(schema, partitionRow));
    EqualityDeleteWriter<Record> writer =
        new GenericAppenderFactory(
                schema, spec, new int[] {schema.findField("id").fieldId()}, deleteSchema, null)
            .newEqDeleteWriter(newFile(table, spec, partition, "eq"), FileFormat.AVRO, partition);
    try (writer) {
      for (long id : ids) {
        writer.write(record(deleteSchema, Map.of("id", id)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  /**
   * Version 3 deletion vectors of the positions each file is mapped to, one vector a file, all in
   * one Puffin file, written by iceberg-core's own writer.
   */
  private static List<DeleteFile> deletionVectors(Table table, Map<DataFile, long[]> positions) {
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, System.nanoTime()).format(FileFormat.PUFFIN).build();
    // no vector to merge: a replaced vector is written whole, with every position it keeps
    DVFileWriter writer = new BaseDVFileWriter(files, path -> null);
    try (writer) {
      positions.forEach(
          (file, deleted) -> {
            for (long position : deleted) {
              writer.delete(
                  file.location(), position, table.specs().get(file.specId()), file.partition());
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<DeleteFile> vectors = writer.result().deleteFiles();
    assertThat(vectors)
        .hasSize(positions.size())
        .allMatch(vector -> vector.format() == FileFormat.PUFFIN);
    return vectors;
  }
}
