package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.puddle.core.maintenance.BackgroundWork;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.ScanPlans;
import dev.puddle.core.planning.PlanningSettings;
import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeSweep;
import dev.puddle.functions.PurgeSweepHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Server-side scan planning against client-side planning of the same tables, through Iceberg's own
 * {@code RESTCatalog}: one client told by {@code /v1/config} to plan on the server (the warehouse's
 * {@code scan-planning-mode}), one that plans for itself. For every table shape and every kind of
 * scan, both must find the same files with the same delete files, residuals and statistics. Pages
 * of two tasks make every plan of more than two files a stored plan, fetched page by page.
 *
 * <p>The data and delete files are metadata only: planning never opens them, and both sides read
 * the same manifests.
 */
class ScanPlanningTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "amount", Types.LongType.get()));

  private static String warehouse;
  private static RESTCatalog server;
  private static RESTCatalog client;

  /**
   * A warehouse where every scan of a snapshot with data files is submitted, not planned inline.
   */
  private static String asyncWarehouse;

  private static RESTCatalog asyncServer;
  private static RESTCatalog asyncClient;

  @BeforeAll
  static void catalogs() {
    warehouse =
        TestTwin.newWarehouse(
            "planning",
            Map.of("scan-planning-mode", "server", "scan-planning.tasks-per-page", "2"));
    server = TestTwin.restCatalog(warehouse, Map.of());
    client = TestTwin.restCatalog(warehouse, Map.of("scan-planning-mode", "client"));
    server.createNamespace(Namespace.of("p"));
    asyncWarehouse =
        TestTwin.newWarehouse(
            "planning_async",
            Map.of(
                "scan-planning-mode", "server",
                "scan-planning.tasks-per-page", "2",
                "scan-planning.async-data-files", "0"));
    asyncServer = TestTwin.restCatalog(asyncWarehouse, Map.of());
    asyncClient = TestTwin.restCatalog(asyncWarehouse, Map.of("scan-planning-mode", "client"));
    asyncServer.createNamespace(Namespace.of("a"));
  }

  @AfterAll
  static void close() throws IOException {
    server.close();
    client.close();
    asyncServer.close();
    asyncClient.close();
  }

  @Test
  void theConfigTellsClientsToPlanOnTheServerAndATablePropertyDecidesForItsTable() {
    TableIdentifier id = TableIdentifier.of("p", "mode");
    server.createTable(id, SCHEMA);
    // the table a client gets is its own REST table only when it plans on the server
    assertThat(server.loadTable(id).getClass().getSimpleName()).isEqualTo("RESTTable");
    assertThat(client.loadTable(id).getClass().getSimpleName()).isNotEqualTo("RESTTable");

    TableIdentifier own = TableIdentifier.of("p", "mode_of_its_own");
    server.createTable(
        own, SCHEMA, PartitionSpec.unpartitioned(), Map.of("scan-planning-mode", "client"));
    assertThat(server.loadTable(own).getClass().getSimpleName()).isNotEqualTo("RESTTable");
    server.loadTable(own).updateProperties().set("scan-planning-mode", "server").commit();
    assertThat(client.loadTable(own).getClass().getSimpleName()).isEqualTo("RESTTable");
  }

  @Test
  void unpartitionedWithPositionAndEqualityDeletes() {
    TableIdentifier id = TableIdentifier.of("p", "unpartitioned");
    Table table =
        server.createTable(
            id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      DataFile file = dataFile(table, null, "u" + i, i * 100L, i * 100L + 99);
      files.add(file);
      table.newAppend().appendFile(file).commit();
    }
    table
        .newRowDelta()
        .addDeletes(positionDeletes(table, null, "pos", files.get(1)))
        .addDeletes(equalityDeletes(table, null, "eq"))
        .commit();

    assertSamePlans(id, scan -> scan);
    assertSamePlans(id, scan -> scan.filter(Expressions.greaterThan("id", 250L)));
    assertSamePlans(id, scan -> scan.filter(Expressions.lessThan("id", 0L)));
    assertSamePlans(
        id,
        scan ->
            scan.select("id", "amount")
                .filter(Expressions.greaterThanOrEqual("ID", 100L))
                .caseSensitive(false)
                .includeColumnStats(List.of("id")));
    // the client fetched every page of its plans, then cancelled them: nothing is left behind
    assertThat(count("SELECT count(*) FROM scan_plan WHERE table_name = 'p.unpartitioned'"))
        .isZero();
  }

  @Test
  void partitionedWithSpecEvolutionGivesResidualsPerSpec() {
    TableIdentifier id = TableIdentifier.of("p", "partitioned");
    Table table =
        server.createTable(
            id,
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("category").build(),
            Map.of("format-version", "2"));
    for (String category : List.of("a", "b", "c")) {
      table
          .newAppend()
          .appendFile(dataFile(table, "category=" + category, category, 0, 9))
          .commit();
    }
    table.updateSpec().addField(Expressions.bucket("id", 4)).commit();
    table.refresh();
    table
        .newAppend()
        .appendFile(dataFile(table, "category=a/id_bucket_4=1", "a-bucketed", 10, 19))
        .appendFile(dataFile(table, "category=d/id_bucket_4=2", "d-bucketed", 20, 29))
        .commit();
    table.refresh();
    table
        .newRowDelta()
        .addDeletes(positionDeletes(table, "category=d/id_bucket_4=2", "d-pos", null))
        .commit();

    assertSamePlans(id, scan -> scan);
    assertSamePlans(id, scan -> scan.filter(Expressions.equal("category", "a")));
    assertSamePlans(
        id,
        scan ->
            scan.filter(
                Expressions.and(
                    Expressions.equal("category", "a"), Expressions.greaterThan("amount", 5L))));
    assertSamePlans(
        id,
        scan ->
            scan.filter(
                Expressions.or(
                    Expressions.equal("category", "d"), Expressions.lessThan("id", 5L))));
  }

  @Test
  void deletionVectorsOfAVersion3Table() {
    TableIdentifier id = TableIdentifier.of("p", "v3");
    Table table =
        server.createTable(
            id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "3"));
    DataFile first = dataFile(table, null, "v3-a", 0, 9);
    DataFile second = dataFile(table, null, "v3-b", 10, 19);
    table.newAppend().appendFile(first).appendFile(second).commit();
    DeleteFile dv =
        FileMetadata.deleteFileBuilder(table.spec())
            .ofPositionDeletes()
            .withFormat(FileFormat.PUFFIN)
            .withPath(table.location() + "/data/dv-1.puffin")
            .withFileSizeInBytes(120)
            .withRecordCount(2)
            .withReferencedDataFile(first.location())
            .withContentOffset(4)
            .withContentSizeInBytes(60)
            .build();
    table.newRowDelta().addDeletes(dv).commit();

    List<String> plan = assertSamePlans(id, scan -> scan);
    assertThat(plan).anyMatch(task -> task.contains("dv-1.puffin"));
  }

  @Test
  void schemaEvolutionBranchesTagsAndTimeTravel() {
    TableIdentifier id = TableIdentifier.of("p", "evolved");
    Table table =
        server.createTable(
            id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
    table.newAppend().appendFile(dataFile(table, null, "e0", 0, 9)).commit();
    long first = table.currentSnapshot().snapshotId();
    table.manageSnapshots().createTag("v1", first).commit();
    table.newAppend().appendFile(dataFile(table, null, "e1", 10, 19)).commit();
    table.manageSnapshots().createBranch("audit").commit();
    table
        .updateSchema()
        .renameColumn("amount", "total")
        .addColumn("note", Types.StringType.get())
        .commit();
    table.newAppend().appendFile(dataFile(table, null, "e2", 20, 29)).commit();
    table.refresh();
    table.newAppend().toBranch("audit").appendFile(dataFile(table, null, "e3", 30, 39)).commit();

    assertSamePlans(id, scan -> scan.filter(Expressions.greaterThan("total", 3L)));
    // time travel and tags read with the snapshot's schema, where the column is still "amount"
    assertSamePlans(
        id, scan -> scan.useSnapshot(first).filter(Expressions.greaterThan("amount", 3L)));
    assertSamePlans(id, scan -> scan.useRef("v1").select("id", "amount"));
    // a branch reads with the table's schema
    assertSamePlans(id, scan -> scan.useRef("audit").filter(Expressions.greaterThan("total", 3L)));
  }

  @Test
  void incrementalAppendScansStartAfterTheirStartSnapshot() throws IOException {
    TableIdentifier id = TableIdentifier.of("p", "incremental");
    Table table =
        server.createTable(
            id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
    List<Long> snapshots = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      table.newAppend().appendFile(dataFile(table, null, "i" + i, i * 10L, i * 10L + 9)).commit();
      snapshots.add(table.currentSnapshot().snapshotId());
    }
    Table local = client.loadTable(id);
    List<String> expected;
    try (CloseableIterable<FileScanTask> tasks =
        local
            .newIncrementalAppendScan()
            .fromSnapshotExclusive(snapshots.get(0))
            .toSnapshot(snapshots.get(3))
            .planFiles()) {
      expected = describe(tasks);
    }
    PlanTableScanRequest request =
        PlanTableScanRequest.builder()
            .withStartSnapshotId(snapshots.get(0))
            .withEndSnapshotId(snapshots.get(3))
            .build();
    assertThat(planOverHttp(local, request))
        .hasSize(3)
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aStoredPlanIsItsCallersAloneUntilCancelledOrExpired() throws IOException {
    TableIdentifier id = TableIdentifier.of("p", "stored");
    Table table = server.createTable(id, SCHEMA);
    for (int i = 0; i < 5; i++) {
      table.newAppend().appendFile(dataFile(table, null, "s" + i, i, i)).commit();
    }
    JsonNode planned = post(planPath(id), "{}");
    assertThat(planned.get("status").asText()).isEqualTo("completed");
    assertThat(planned.get("file-scan-tasks")).hasSize(2);
    assertThat(planned.get("plan-tasks")).hasSize(2);
    String planId = planned.get("plan-id").asText();
    String task = planned.at("/plan-tasks/0").asText();

    JsonNode result = get(planPath(id) + "/" + planId);
    assertThat(result.get("status").asText()).isEqualTo("completed");
    assertThat(result.get("plan-tasks")).isEqualTo(planned.get("plan-tasks"));
    assertThat(post(tasksPath(id), taskBody(task)).get("file-scan-tasks")).hasSize(2);

    // another principal's plan: unknown, as is the plan on another table's path
    String owner = text("SELECT principal FROM scan_plan WHERE id = '" + planId + "'");
    assertThat(sql("UPDATE scan_plan SET principal = 'someone-else' WHERE id = '" + planId + "'"))
        .isEqualTo(1);
    expectError(send("GET", planPath(id) + "/" + planId, null), 404, "NoSuchPlanIdException");
    expectError(send("POST", tasksPath(id), taskBody(task)), 404, "NoSuchPlanTaskException");
    expectError(send("DELETE", planPath(id) + "/" + planId, null), 404, "NoSuchPlanIdException");
    sql("UPDATE scan_plan SET principal = '" + owner + "' WHERE id = '" + planId + "'");
    TableIdentifier other = TableIdentifier.of("p", "stored_other");
    server.createTable(other, SCHEMA);
    expectError(send("GET", planPath(other) + "/" + planId, null), 404, "NoSuchPlanIdException");
    expectError(send("POST", tasksPath(other), taskBody(task)), 404, "NoSuchPlanTaskException");
    assertThat(post(tasksPath(id), taskBody(task)).get("file-scan-tasks")).hasSize(2);

    // cancelled: gone, with its pages
    assertThat(send("DELETE", planPath(id) + "/" + planId, null).statusCode()).isEqualTo(204);
    expectError(send("GET", planPath(id) + "/" + planId, null), 404, "NoSuchPlanIdException");
    expectError(send("POST", tasksPath(id), taskBody(task)), 404, "NoSuchPlanTaskException");
    expectError(send("DELETE", planPath(id) + "/" + planId, null), 404, "NoSuchPlanIdException");
    assertThat(count("SELECT count(*) FROM scan_plan_page WHERE plan_id = '" + planId + "'"))
        .isZero();

    // expired: unknown at once, and removed by the next stored plan's sweep
    String expiring = post(planPath(id), "{}").get("plan-id").asText();
    sql(
        "UPDATE scan_plan SET expires_at = now() - interval '1 second' WHERE id = '"
            + expiring
            + "'");
    expectError(send("GET", planPath(id) + "/" + expiring, null), 404, "NoSuchPlanIdException");
    post(planPath(id), "{}");
    assertThat(count("SELECT count(*) FROM scan_plan WHERE id = '" + expiring + "'")).isZero();

    // and by the scheduled sweep, pages and all
    String swept = post(planPath(id), "{}").get("plan-id").asText();
    sql("UPDATE scan_plan SET expires_at = now() - interval '1 second' WHERE id = '" + swept + "'");
    assertThat(sweep().get("expiredPlans").asInt()).isPositive();
    assertThat(count("SELECT count(*) FROM scan_plan_page WHERE plan_id = '" + swept + "'"))
        .isZero();
  }

  /** Runs the scheduled sweep's handler now and returns its answer. */
  private static JsonNode sweep() throws IOException {
    PurgeSweepHandler handler =
        new PurgeSweepHandler(
            new BackgroundWork(TestTwin.get().database())
                .sweep(
                    TestTwin.get().purge().sweepQueue(),
                    TestTwin.PURGE.sweep().withoutGrace(),
                    MaintenanceOutbox.Settings.DEFAULTS),
            new ScanPlans(TestTwin.get().database()));
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8)),
        output,
        new LocalContext("sweep", Duration.ofSeconds(30)));
    return JsonUtil.mapper().readTree(output.toByteArray());
  }

  @Test
  void unknownIdsAndBadRequestsChangeNothing() throws IOException {
    TableIdentifier id = TableIdentifier.of("p", "errors");
    Table table = server.createTable(id, SCHEMA);
    table.newAppend().appendFile(dataFile(table, null, "x", 0, 1)).commit();
    String unknown = "0b9f5a3e-5a8d-4c52-9f0e-1a2b3c4d5e6f";
    expectError(send("GET", planPath(id) + "/" + unknown, null), 404, "NoSuchPlanIdException");
    expectError(send("GET", planPath(id) + "/not-a-plan", null), 404, "NoSuchPlanIdException");
    expectError(send("DELETE", planPath(id) + "/" + unknown, null), 404, "NoSuchPlanIdException");
    expectError(send("POST", tasksPath(id), taskBody("nonsense")), 404, "NoSuchPlanTaskException");
    expectError(
        send("POST", tasksPath(id), taskBody(unknown + "/1")), 404, "NoSuchPlanTaskException");
    expectError(
        send("POST", planPath(TableIdentifier.of("p", "missing")), "{}"),
        404,
        "NoSuchTableException");
    expectError(
        send(
            "POST",
            planPath(id),
            "{\"snapshot-id\":1,\"start-snapshot-id\":1,\"end-snapshot-id\":2}"),
        400,
        "BadRequestException");
    expectError(
        send("POST", planPath(id), "{\"snapshot-id\":42}"), 400, "IllegalArgumentException");
    expectError(
        send("POST", planPath(id), "{\"select\":[\"no_such_column\"]}"),
        400,
        "ValidationException");
  }

  @Test
  void storageCredentialsWhenAskedFor() throws IOException {
    TableIdentifier id = TableIdentifier.of("p", "credentials");
    Table table = server.createTable(id, SCHEMA);
    table.newAppend().appendFile(dataFile(table, null, "c", 0, 1)).commit();
    HttpResponse<String> response =
        send("POST", planPath(id), "{}", "X-Iceberg-Access-Delegation", "vended-credentials");
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = JsonUtil.mapper().readTree(response.body());
    assertThat(body.get("storage-credentials")).hasSize(1);
    assertThat(body.at("/storage-credentials/0/prefix").asText()).isEqualTo(table.location());
    assertThat(post(planPath(id), "{}").has("storage-credentials")).isFalse();
  }

  @Test
  void aSubmittedPlanIsPlannedByTheWorkerAndGivesTheSameFiles() {
    TableIdentifier id = TableIdentifier.of("a", "submitted");
    Table table =
        asyncServer.createTable(
            id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      DataFile file = dataFile(table, null, "a" + i, i * 100L, i * 100L + 99);
      files.add(file);
      table.newAppend().appendFile(file).commit();
    }
    table
        .newRowDelta()
        .addDeletes(positionDeletes(table, null, "pos", files.get(1)))
        .addDeletes(equalityDeletes(table, null, "eq"))
        .commit();

    // Iceberg's client polls fetchPlanningResult until the worker has stored the pages
    assertSamePlans(asyncServer, asyncClient, id, scan -> scan);
    assertSamePlans(
        asyncServer,
        asyncClient,
        id,
        scan -> scan.filter(Expressions.greaterThan("id", 250L)).select("id"));
    // every plan was submitted, planned by the worker, fetched and then cancelled by the client
    assertThat(count("SELECT count(*) FROM scan_plan WHERE table_name = 'a.submitted'")).isZero();
  }

  @Test
  void aFetchOfASubmittedPlanAnswersAsSoonAsTheWorkerHasPlannedIt() throws IOException {
    TableIdentifier id = TableIdentifier.of("a", "waited");
    Table table = asyncServer.createTable(id, SCHEMA);
    for (int i = 0; i < 3; i++) {
      table.newAppend().appendFile(dataFile(table, null, "w" + i, i, i)).commit();
    }
    JsonNode submitted = post(asyncPlanPath(id), "{}");
    assertThat(submitted.get("status").asText()).isEqualTo("submitted");

    // one fetch, at once: it holds its answer until the worker has stored the pages, rather than
    // answering submitted and leaving the client to poll again seconds later
    JsonNode result = get(asyncPlanPath(id) + "/" + submitted.get("plan-id").asText());
    assertThat(result.get("status").asText()).as(result.toString()).isEqualTo("completed");
    assertThat(result.get("plan-tasks")).hasSize(2);
  }

  @Test
  void aFetchOfAPlanTheWorkerNeverGetsToAnswersSubmittedWithinTheRequest() throws IOException {
    TableIdentifier id = TableIdentifier.of("a", "unplanned");
    Table table = asyncServer.createTable(id, SCHEMA);
    table.newAppend().appendFile(dataFile(table, null, "u0", 0, 1)).commit();
    String first = post(asyncPlanPath(id), "{}").get("plan-id").asText();
    untilCompleted(id, first);
    UUID lost = submitDirectly(id, first);

    HttpResponse<String> response = send("GET", asyncPlanPath(id) + "/" + lost, null);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(JsonUtil.mapper().readTree(response.body()).get("status").asText())
        .isEqualTo("submitted");
    sql("DELETE FROM scan_plan WHERE id = '" + lost + "'");
  }

  @Test
  void aSubmittedPlanWhoseMessageIsLostIsSentAgainByTheSweep() throws IOException {
    TableIdentifier id = TableIdentifier.of("a", "lost");
    Table table = asyncServer.createTable(id, SCHEMA);
    for (int i = 0; i < 5; i++) {
      table.newAppend().appendFile(dataFile(table, null, "l" + i, i, i)).commit();
    }
    JsonNode submitted = post(asyncPlanPath(id), "{}");
    assertThat(submitted.get("status").asText()).isEqualTo("submitted");
    assertThat(submitted.has("file-scan-tasks")).isFalse();
    JsonNode completed = untilCompleted(id, submitted.get("plan-id").asText());
    assertThat(completed.get("plan-tasks")).hasSize(3);

    // a plan recorded with its job whose message never reached the queue
    UUID lost = submitDirectly(id, submitted.get("plan-id").asText());
    assertThat(get(asyncPlanPath(id) + "/" + lost).get("status").asText()).isEqualTo("submitted");
    assertThat(sweep().get("resent").asInt()).isPositive();
    JsonNode planned = untilCompleted(id, lost.toString());
    int tasks = 0;
    for (JsonNode task : planned.get("plan-tasks")) {
      tasks +=
          post(asyncTablePath(id) + "/tasks", taskBody(task.asText()))
              .get("file-scan-tasks")
              .size();
    }
    assertThat(tasks).isEqualTo(5);
  }

  @Test
  void aPlanWhoseSentMessageWasLostIsSentAgainWithinItsLifetimeWhileAPurgeAsOldWaits()
      throws IOException {
    TableIdentifier id = TableIdentifier.of("a", "lost_after_send");
    Table table = asyncServer.createTable(id, SCHEMA);
    for (int i = 0; i < 3; i++) {
      table.newAppend().appendFile(dataFile(table, null, "s" + i, i, i)).commit();
    }
    String first = post(asyncPlanPath(id), "{}").get("plan-id").asText();
    untilCompleted(id, first);
    // a plan whose message was sent and then lost (the queue was purged, say), and a purge job
    // whose message was lost too, of a table whose files are already gone
    UUID plan = submitDirectly(id, first);
    UUID purge = UUID.randomUUID();
    sql(
        "INSERT INTO purge_job (object_id, realm_id, warehouse_id, kind, identifier, location,"
            + " owns_location, metadata_location) SELECT '"
            + purge
            + "', realm_id, warehouse_id, 'table', 'a.purged', 's3://"
            + LocalTwin.BUCKET
            + "/gone', false, 's3://"
            + LocalTwin.BUCKET
            + "/gone/metadata/v1.metadata.json' FROM scan_plan WHERE id = '"
            + first
            + "'");
    PurgeSweep.Settings twin = TestTwin.PURGE.sweep();
    Duration planning = twin.stale(JobKind.PLAN);
    assertThat(planning).isLessThan(twin.stale(JobKind.PURGE));
    assertThat(planning).isLessThan(PlanningSettings.LIFETIME.dividedBy(4));
    try {
      // younger than planning's window: SQS's own redelivery may still come, so the sweep waits
      sentAndUntouchedFor(plan, purge, planning.minusSeconds(30));
      sweep();
      assertThat(sentWithin(plan, "scan_plan_job", "plan_id")).isFalse();
      assertThat(get(asyncPlanPath(id) + "/" + plan).get("status").asText()).isEqualTo("submitted");

      // older: the plan is sent again and planned; the purge job, as old, is not sent
      sentAndUntouchedFor(plan, purge, planning.plusSeconds(30));
      sweep();
      assertThat(sentWithin(plan, "scan_plan_job", "plan_id")).isTrue();
      assertThat(untilCompleted(id, plan.toString()).get("plan-tasks")).hasSize(2);
      assertThat(sentWithin(purge, "purge_job", "object_id")).isFalse();
      assertThat(text("SELECT state FROM purge_job WHERE object_id = '" + purge + "'"))
          .isEqualTo("queued");
    } finally {
      sql("DELETE FROM purge_job WHERE object_id = '" + purge + "'");
    }
  }

  /**
   * Makes a plan's job and a purge job look as if their message was sent {@code age} ago and
   * nothing has happened to them since.
   */
  private static void sentAndUntouchedFor(UUID plan, UUID purge, Duration age) {
    String ago = "now() - interval '" + age.toSeconds() + " seconds'";
    assertThat(
            sql(
                "UPDATE scan_plan_job SET sent_at = "
                    + ago
                    + ", updated_at = "
                    + ago
                    + " WHERE plan_id = '"
                    + plan
                    + "' AND state = 'queued'"))
        .isEqualTo(1);
    assertThat(
            sql(
                "UPDATE purge_job SET sent_at = "
                    + ago
                    + ", updated_at = "
                    + ago
                    + " WHERE object_id = '"
                    + purge
                    + "' AND state = 'queued'"))
        .isEqualTo(1);
  }

  /** Whether a message for the job was sent in the last minute. */
  private static boolean sentWithin(UUID job, String table, String key) {
    return count(
            "SELECT count(*) FROM "
                + table
                + " WHERE "
                + key
                + " = '"
                + job
                + "' AND sent_at > now() - interval '1 minute'")
        == 1;
  }

  @Test
  void aSubmittedPlanCanBeCancelledAndIsItsCallersAlone() throws IOException {
    TableIdentifier id = TableIdentifier.of("a", "cancelled");
    Table table = asyncServer.createTable(id, SCHEMA);
    table.newAppend().appendFile(dataFile(table, null, "c0", 0, 1)).commit();
    String first = post(asyncPlanPath(id), "{}").get("plan-id").asText();
    untilCompleted(id, first);
    UUID plan = submitDirectly(id, first);
    String path = asyncPlanPath(id) + "/" + plan;
    assertThat(get(path).get("status").asText()).isEqualTo("submitted");

    // another principal's submitted plan is unknown to the caller, and cannot be cancelled
    String owner = text("SELECT principal FROM scan_plan WHERE id = '" + plan + "'");
    sql("UPDATE scan_plan SET principal = 'someone-else' WHERE id = '" + plan + "'");
    expectError(send("GET", path, null), 404, "NoSuchPlanIdException");
    expectError(send("DELETE", path, null), 404, "NoSuchPlanIdException");
    sql("UPDATE scan_plan SET principal = '" + owner + "' WHERE id = '" + plan + "'");

    // cancelled before the worker got to it: gone with its job, and the sweep sends nothing
    assertThat(send("DELETE", path, null).statusCode()).isEqualTo(204);
    expectError(send("GET", path, null), 404, "NoSuchPlanIdException");
    assertThat(count("SELECT count(*) FROM scan_plan_job WHERE plan_id = '" + plan + "'")).isZero();
    sweep();
    assertThat(count("SELECT count(*) FROM scan_plan WHERE id = '" + plan + "'")).isZero();
  }

  /**
   * Records a plan of the whole table for the owner of {@code like}, as planTableScan records a
   * submitted one, without sending its job: as if the send were lost.
   */
  private static UUID submitDirectly(TableIdentifier id, String like) {
    String realm = text("SELECT realm_id FROM scan_plan WHERE id = '" + like + "'");
    String principal = text("SELECT principal FROM scan_plan WHERE id = '" + like + "'");
    long warehouseId = count("SELECT warehouse_id FROM scan_plan WHERE id = '" + like + "'");
    String metadata =
        ((HasTableOperations) asyncClient.loadTable(id))
            .operations()
            .current()
            .metadataFileLocation();
    return new ScanPlans(TestTwin.get().database())
        .submit(
            new ScanPlans.Owner(realm, principal, warehouseId, id.toString()),
            "{}",
            metadata,
            2,
            Duration.ofHours(1),
            0);
  }

  /** Polls the plan's result, with a bounded deadline, until the worker has completed it. */
  private static JsonNode untilCompleted(TableIdentifier id, String plan) throws IOException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      JsonNode result = get(asyncPlanPath(id) + "/" + plan);
      if (!"submitted".equals(result.get("status").asText())) {
        assertThat(result.get("status").asText()).as(result.toString()).isEqualTo("completed");
        return result;
      }
      assertThat(System.nanoTime()).as("plan " + plan + " still submitted").isLessThan(deadline);
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private static String asyncTablePath(TableIdentifier id) {
    return "/v1/" + asyncWarehouse + "/namespaces/" + id.namespace() + "/tables/" + id.name();
  }

  private static String asyncPlanPath(TableIdentifier id) {
    return asyncTablePath(id) + "/plan";
  }

  /**
   * Plans a scan both ways and asserts both found the same tasks; returns them, described. The
   * server-side plan goes through the client's plan tasks whenever there are more than two files.
   */
  private static List<String> assertSamePlans(TableIdentifier id, UnaryOperator<TableScan> scan) {
    return assertSamePlans(server, client, id, scan);
  }

  private static List<String> assertSamePlans(
      RESTCatalog server, RESTCatalog client, TableIdentifier id, UnaryOperator<TableScan> scan) {
    List<String> local = plan(client.loadTable(id), scan);
    List<String> remote = plan(server.loadTable(id), scan);
    assertThat(remote).containsExactlyInAnyOrderElementsOf(local);
    return remote;
  }

  private static List<String> plan(Table table, UnaryOperator<TableScan> scan) {
    try (CloseableIterable<FileScanTask> tasks = scan.apply(table.newScan()).planFiles()) {
      return describe(tasks);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What a reader gets from each task: its file, range, deletes, residual and statistics. */
  private static List<String> describe(Iterable<FileScanTask> tasks) {
    List<String> described = new ArrayList<>();
    for (FileScanTask task : tasks) {
      TreeSet<String> deletes = new TreeSet<>();
      task.deletes()
          .forEach(delete -> deletes.add(delete.location() + "@" + delete.contentOffset()));
      described.add(
          task.file().location()
              + " spec="
              + task.file().specId()
              + " range="
              + task.start()
              + "+"
              + task.length()
              + " deletes="
              + deletes
              + " residual="
              + ExpressionParser.toJson(task.residual())
              + " stats="
              + stats(task.file()));
    }
    return described;
  }

  private static String stats(ContentFile<?> file) {
    return file.lowerBounds() == null
        ? "none"
        : new TreeSet<>(file.lowerBounds().keySet()).toString();
  }

  /** Plans over HTTP, following every plan task, as the client would. */
  private static List<String> planOverHttp(Table table, PlanTableScanRequest request)
      throws IOException {
    TableIdentifier id =
        TableIdentifier.parse(table.name().substring(table.name().indexOf('.') + 1));
    JsonNode body = post(planPath(id), PlanTableScanRequestParser.toJson(request));
    PlanTableScanResponse response =
        PlanTableScanResponseParser.fromJson(body, table.specs(), true);
    List<FileScanTask> tasks = new ArrayList<>(response.fileScanTasks());
    for (String task : response.planTasks() == null ? List.<String>of() : response.planTasks()) {
      tasks.addAll(
          FetchScanTasksResponseParser.fromJson(
                  post(tasksPath(id), taskBody(task)), table.specs(), true)
              .fileScanTasks());
    }
    return describe(tasks);
  }

  private static DataFile dataFile(
      Table table, String partition, String name, long low, long high) {
    Map<Integer, ByteBuffer> lower =
        Map.of(
            1,
            Conversions.toByteBuffer(Types.LongType.get(), low),
            3,
            Conversions.toByteBuffer(Types.LongType.get(), low));
    Map<Integer, ByteBuffer> upper =
        Map.of(
            1,
            Conversions.toByteBuffer(Types.LongType.get(), high),
            3,
            Conversions.toByteBuffer(Types.LongType.get(), high));
    DataFiles.Builder builder =
        DataFiles.builder(table.spec())
            .withPath(table.location() + "/data/" + name + ".parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(1024)
            .withMetrics(
                new Metrics(
                    high - low + 1,
                    Map.of(1, 64L),
                    Map.of(1, high - low + 1),
                    Map.of(1, 0L),
                    null,
                    lower,
                    upper));
    if (partition != null) {
      builder.withPartitionPath(partition);
    }
    return builder.build();
  }

  private static DeleteFile positionDeletes(
      Table table, String partition, String name, DataFile referenced) {
    FileMetadata.Builder builder =
        FileMetadata.deleteFileBuilder(table.spec())
            .ofPositionDeletes()
            .withPath(table.location() + "/data/" + name + "-deletes.parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(256)
            .withRecordCount(1);
    if (partition != null) {
      builder.withPartitionPath(partition);
    }
    if (referenced != null) {
      builder.withReferencedDataFile(referenced.location());
    }
    return builder.build();
  }

  private static DeleteFile equalityDeletes(Table table, String partition, String name) {
    FileMetadata.Builder builder =
        FileMetadata.deleteFileBuilder(table.spec())
            .ofEqualityDeletes(1)
            .withPath(table.location() + "/data/" + name + "-deletes.parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(256)
            .withRecordCount(1);
    if (partition != null) {
      builder.withPartitionPath(partition);
    }
    return builder.build();
  }

  private static String planPath(TableIdentifier id) {
    return tablePath(id) + "/plan";
  }

  private static String tasksPath(TableIdentifier id) {
    return tablePath(id) + "/tasks";
  }

  private static String tablePath(TableIdentifier id) {
    return "/v1/" + warehouse + "/namespaces/" + id.namespace() + "/tables/" + id.name();
  }

  private static String taskBody(String task) {
    return "{\"plan-task\":" + JsonUtil.mapper().valueToTree(task) + "}";
  }

  private static JsonNode post(String path, String body) throws IOException {
    return ok(send("POST", path, body));
  }

  private static JsonNode get(String path) throws IOException {
    return ok(send("GET", path, null));
  }

  private static JsonNode ok(HttpResponse<String> response) throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JsonUtil.mapper().readTree(response.body());
  }

  private static void expectError(HttpResponse<String> response, int status, String type)
      throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(JsonUtil.mapper().readTree(response.body()).at("/error/type").asText())
        .isEqualTo(type);
  }

  private static HttpResponse<String> send(
      String method, String path, String body, String... headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(TestTwin.get().uri() + path))
            .header("Authorization", "Bearer " + TestTwin.rootToken())
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static int sql(String statement) {
    return TestTwin.admin(statement);
  }

  private static long count(String query) {
    return Long.parseLong(text(query));
  }

  private static String text(String query) {
    return TestTwin.get()
        .database()
        .read(
            connection -> {
              try (PreparedStatement statement = connection.prepareStatement(query);
                  ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getString(1);
              }
            });
  }
}
