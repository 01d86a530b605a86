package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.puddle.contract.Route;
import dev.puddle.core.metastore.ScanPlans;
import dev.puddle.core.planning.PlanningSettings;
import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeSweep;
import dev.puddle.functions.CatalogHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
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

  private static final TwinHttp HTTP = TwinHttp.root();

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
    tableWithDeletes(server, id, "u");

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
    Table table = unpartitioned(server, id, 3);
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
    Table table = unpartitioned(server, id, 2);
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
    Table table = unpartitioned(server, id, 2);
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
  void aPlanAskedForAgainOnTheSameVersionIsTheSameAndANewVersionIsPlannedAnew() {
    TableIdentifier id = TableIdentifier.of("p", "asked_again");
    Table table = tableOfFiles(server, id, "again", 1);
    String first = ok(HTTP.post(planPath(id), "{}")).toString();
    assertThat(ok(HTTP.post(planPath(id), "{}")).toString()).isEqualTo(first);
    // the file's ids are 0 to 0: a filter on larger ones plans no task
    assertThat(
            ok(HTTP.post(
                    planPath(id), "{\"filter\":{\"type\":\"gt\",\"term\":\"id\",\"value\":100}}"))
                .path("file-scan-tasks"))
        .as("another request, another answer")
        .isEmpty();

    table.newAppend().appendFile(dataFile(table, null, "again1", 1, 1)).commit();

    // two files still fit a page of two: answered whole again, of the new version
    JsonNode second = ok(HTTP.post(planPath(id), "{}"));
    assertThat(second.get("file-scan-tasks")).hasSize(2);
    assertThat(second.has("plan-tasks")).isFalse();
    assertSamePlans(id, scan -> scan);
  }

  @Test
  void aStoredPlanIsItsCallersAloneUntilCancelledOrExpired() {
    TableIdentifier id = TableIdentifier.of("p", "stored");
    tableOfFiles(server, id, "s", 5);
    JsonNode planned = post(planPath(id), "{}");
    assertThat(planned.get("status").asText()).isEqualTo("completed");
    assertThat(planned.get("file-scan-tasks")).hasSize(2);
    assertThat(planned.get("plan-tasks")).hasSize(2);
    String planId = planId(planned);
    String task = planned.at("/plan-tasks/0").asText();

    JsonNode result = get(planPath(id) + "/" + planId);
    assertThat(result.get("status").asText()).isEqualTo("completed");
    assertThat(result.get("plan-tasks")).isEqualTo(planned.get("plan-tasks"));
    assertThat(post(tasksPath(id), taskBody(task)).get("file-scan-tasks")).hasSize(2);

    // another principal's plan: unknown, as is the plan on another table's path
    String plan = planPath(id) + "/" + planId;
    asSomeoneElse(
        planId,
        () -> {
          expectNoPlan("GET", plan);
          expectNoTask(id, task);
          expectNoPlan("DELETE", plan);
        });
    TableIdentifier other = TableIdentifier.of("p", "stored_other");
    server.createTable(other, SCHEMA);
    expectNoPlan("GET", planPath(other) + "/" + planId);
    expectNoTask(other, task);
    assertThat(post(tasksPath(id), taskBody(task)).get("file-scan-tasks")).hasSize(2);

    // cancelled: gone, with its pages
    assertThat(HTTP.delete(plan).statusCode()).isEqualTo(204);
    expectNoPlan("GET", plan);
    expectNoTask(id, task);
    expectNoPlan("DELETE", plan);
    assertThat(count("SELECT count(*) FROM scan_plan_page WHERE plan_id = '" + planId + "'"))
        .isZero();

    // expired: unknown at once, and removed by the next stored plan's sweep
    String expiring = planId(post(planPath(id), "{}"));
    expire(expiring);
    expectNoPlan("GET", planPath(id) + "/" + expiring);
    post(planPath(id), "{}");
    assertThat(count("SELECT count(*) FROM scan_plan WHERE id = '" + expiring + "'")).isZero();

    // and by the scheduled sweep, pages and all
    String swept = planId(post(planPath(id), "{}"));
    expire(swept);
    assertThat(PurgeFunction.sweep().get("expiredPlans").asInt()).isPositive();
    assertThat(count("SELECT count(*) FROM scan_plan_page WHERE plan_id = '" + swept + "'"))
        .isZero();
  }

  @Test
  void unknownIdsAndBadRequestsChangeNothing() {
    TableIdentifier id = TableIdentifier.of("p", "errors");
    tableOfFiles(server, id, "x", 1);
    String unknown = "0b9f5a3e-5a8d-4c52-9f0e-1a2b3c4d5e6f";
    expectNoPlan("GET", planPath(id) + "/" + unknown);
    expectNoPlan("GET", planPath(id) + "/not-a-plan");
    expectNoPlan("DELETE", planPath(id) + "/" + unknown);
    expectNoTask(id, "nonsense");
    expectNoTask(id, unknown + "/1");
    expectError(
        HTTP.post(planPath(TableIdentifier.of("p", "missing")), "{}"), 404, "NoSuchTableException");
    expectError(
        HTTP.post(
            planPath(id), "{\"snapshot-id\":1,\"start-snapshot-id\":1,\"end-snapshot-id\":2}"),
        400,
        "BadRequestException");
    expectError(HTTP.post(planPath(id), "{\"snapshot-id\":42}"), 400, "IllegalArgumentException");
    expectError(
        HTTP.post(planPath(id), "{\"select\":[\"no_such_column\"]}"), 400, "ValidationException");
  }

  @Test
  void storageCredentialsWhenAskedFor() {
    TableIdentifier id = TableIdentifier.of("p", "credentials");
    Table table = tableOfFiles(server, id, "c", 1);
    HttpResponse<String> response =
        HTTP.send("POST", planPath(id), "{}", "X-Iceberg-Access-Delegation", "vended-credentials");
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = TwinHttp.json(response);
    assertThat(body.get("storage-credentials")).hasSize(1);
    assertThat(body.at("/storage-credentials/0/prefix").asText()).isEqualTo(table.location());
    assertThat(post(planPath(id), "{}").has("storage-credentials")).isFalse();
  }

  @Test
  void aSubmittedPlanIsPlannedByTheWorkerAndGivesTheSameFiles() {
    TableIdentifier id = TableIdentifier.of("a", "submitted");
    tableWithDeletes(asyncServer, id, "a");

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
  void aFetchOfASubmittedPlanAnswersAsSoonAsTheWorkerHasPlannedIt() {
    TableIdentifier id = TableIdentifier.of("a", "waited");
    tableOfFiles(asyncServer, id, "w", 3);
    JsonNode submitted = post(asyncPlanPath(id), "{}");
    assertThat(submitted.get("status").asText()).isEqualTo("submitted");

    // one fetch, at once: it holds its answer until the worker has stored the pages, rather than
    // answering submitted and leaving the client to poll again seconds later
    JsonNode result = get(asyncPlanPath(id) + "/" + planId(submitted));
    assertThat(result.get("status").asText()).as(result.toString()).isEqualTo("completed");
    assertThat(result.get("plan-tasks")).hasSize(2);
  }

  @Test
  void aFetchOfAPlanTheWorkerNeverGetsToAnswersSubmittedWithinTheRequest() {
    TableIdentifier id = TableIdentifier.of("a", "unplanned");
    tableOfFiles(asyncServer, id, "u", 1);
    UUID lost = lostPlan(id);

    HttpResponse<String> response = HTTP.get(asyncPlanPath(id) + "/" + lost);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(TwinHttp.json(response).get("status").asText()).isEqualTo("submitted");
    sql("DELETE FROM scan_plan WHERE id = '" + lost + "'");
  }

  @Test
  void aSubmittedPlanWhoseMessageIsLostIsSentAgainByTheSweep() {
    TableIdentifier id = TableIdentifier.of("a", "lost");
    tableOfFiles(asyncServer, id, "l", 5);
    JsonNode submitted = post(asyncPlanPath(id), "{}");
    assertThat(submitted.get("status").asText()).isEqualTo("submitted");
    assertThat(submitted.has("file-scan-tasks")).isFalse();
    JsonNode completed = untilCompleted(id, planId(submitted));
    assertThat(completed.get("plan-tasks")).hasSize(3);

    // a plan recorded with its job whose message never reached the queue
    UUID lost = submitDirectly(id, planId(submitted));
    assertThat(fetchedStatus(id, lost)).isEqualTo("submitted");
    assertThat(PurgeFunction.sweep().get("resent").asInt()).isPositive();
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
  void aPlanWhoseSentMessageWasLostIsSentAgainWithinItsLifetimeWhileAPurgeAsOldWaits() {
    TableIdentifier id = TableIdentifier.of("a", "lost_after_send");
    tableOfFiles(asyncServer, id, "s", 3);
    // a plan whose message was sent and then lost (the queue was purged, say), and a purge job
    // whose message was lost too, of a table whose files are already gone
    UUID plan = lostPlan(id);
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
            + plan
            + "'");
    PurgeSweep.Settings twin = TestTwin.PURGE.sweep();
    Duration planning = twin.stale(JobKind.PLAN);
    assertThat(planning).isLessThan(twin.stale(JobKind.PURGE));
    assertThat(planning).isLessThan(PlanningSettings.LIFETIME.dividedBy(4));
    try {
      // younger than planning's window: SQS's own redelivery may still come, so the sweep waits
      sentAndUntouchedFor(plan, purge, planning.minusSeconds(30));
      PurgeFunction.sweep();
      assertThat(sentWithin(plan, "scan_plan_job", "plan_id")).isFalse();
      assertThat(fetchedStatus(id, plan)).isEqualTo("submitted");

      // older: the plan is sent again and planned; the purge job, as old, is not sent
      sentAndUntouchedFor(plan, purge, planning.plusSeconds(30));
      PurgeFunction.sweep();
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
  void aSubmittedPlanCanBeCancelledAndIsItsCallersAlone() {
    TableIdentifier id = TableIdentifier.of("a", "cancelled");
    tableOfFiles(asyncServer, id, "c", 1);
    UUID plan = lostPlan(id);
    String path = asyncPlanPath(id) + "/" + plan;
    assertThat(fetchedStatus(id, plan)).isEqualTo("submitted");

    // another principal's submitted plan is unknown to the caller, and cannot be cancelled
    asSomeoneElse(
        plan.toString(),
        () -> {
          expectNoPlan("GET", path);
          expectNoPlan("DELETE", path);
        });

    // cancelled before the worker got to it: gone with its job, and the sweep sends nothing
    assertThat(HTTP.delete(path).statusCode()).isEqualTo(204);
    expectNoPlan("GET", path);
    assertThat(count("SELECT count(*) FROM scan_plan_job WHERE plan_id = '" + plan + "'")).isZero();
    PurgeFunction.sweep();
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

  /**
   * A submitted plan of the whole table whose send was lost, recorded once the worker has planned
   * an earlier one (whose owner it takes).
   */
  private static UUID lostPlan(TableIdentifier id) {
    String first = planId(post(asyncPlanPath(id), "{}"));
    untilCompleted(id, first);
    return submitDirectly(id, first);
  }

  /** Runs {@code checks} while the plan belongs to another principal, then gives it back. */
  private static void asSomeoneElse(String plan, Runnable checks) {
    String owner = text("SELECT principal FROM scan_plan WHERE id = '" + plan + "'");
    assertThat(sql("UPDATE scan_plan SET principal = 'someone-else' WHERE id = '" + plan + "'"))
        .isEqualTo(1);
    checks.run();
    sql("UPDATE scan_plan SET principal = '" + owner + "' WHERE id = '" + plan + "'");
  }

  private static void expire(String plan) {
    sql("UPDATE scan_plan SET expires_at = now() - interval '1 second' WHERE id = '" + plan + "'");
  }

  private static String planId(JsonNode plan) {
    return plan.get("plan-id").asText();
  }

  /**
   * The status root's fetch of a submitted plan answers, from the catalog's handler invoked as a
   * function with a few seconds to run: a fetch holds its answer while the plan is submitted for
   * half its time left, which over the twin's 30 s requests is 15 s a look. That a fetch over HTTP
   * answers submitted within its request is {@link
   * #aFetchOfAPlanTheWorkerNeverGetsToAnswersSubmittedWithinTheRequest}'s.
   */
  private static String fetchedStatus(TableIdentifier id, UUID plan) {
    CatalogHandler handler =
        new CatalogHandler(
            TestTwin.rootApi(asyncWarehouse)
                .planningQueue(TestTwin.get().purge().planningQueue())
                .build());
    Invocations.Answer answer =
        Invocations.invoke(
            handler,
            Invocations.event(
                Route.FETCH_PLANNING_RESULT,
                Map.of(
                    "prefix",
                    asyncWarehouse,
                    "namespace",
                    id.namespace().toString(),
                    "table",
                    id.name(),
                    "plan-id",
                    plan.toString()),
                null,
                Map.of()),
            new LocalContext("fetch", Duration.ofSeconds(4)));
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer.json().get("status").asText();
  }

  /** Polls the plan's result, with a bounded deadline, until the worker has completed it. */
  private static JsonNode untilCompleted(TableIdentifier id, String plan) {
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
  private static List<String> planOverHttp(Table table, PlanTableScanRequest request) {
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

  /** An unpartitioned table of Iceberg's format {@code version}. */
  private static Table unpartitioned(RESTCatalog catalog, TableIdentifier id, int version) {
    return catalog.createTable(
        id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "" + version));
  }

  /** A table of {@code files} appends of one data file each, named {@code prefix} and a number. */
  private static Table tableOfFiles(
      RESTCatalog catalog, TableIdentifier id, String prefix, int files) {
    Table table = catalog.createTable(id, SCHEMA);
    for (int i = 0; i < files; i++) {
      table.newAppend().appendFile(dataFile(table, null, prefix + i, i, i)).commit();
    }
    return table;
  }

  /**
   * A version 2 table of five appends of one data file each, then a position delete file for the
   * second and an equality delete file.
   */
  private static void tableWithDeletes(RESTCatalog catalog, TableIdentifier id, String prefix) {
    Table table = unpartitioned(catalog, id, 2);
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      DataFile file = dataFile(table, null, prefix + i, i * 100L, i * 100L + 99);
      files.add(file);
      table.newAppend().appendFile(file).commit();
    }
    table
        .newRowDelta()
        .addDeletes(positionDeletes(table, null, "pos", files.get(1)))
        .addDeletes(equalityDeletes(table, null, "eq"))
        .commit();
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

  private static JsonNode post(String path, String body) {
    return ok(HTTP.post(path, body));
  }

  private static JsonNode get(String path) {
    return ok(HTTP.get(path));
  }

  private static JsonNode ok(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TwinHttp.json(response);
  }

  /** {@code method} on a plan's path answers that the plan is unknown. */
  private static void expectNoPlan(String method, String path) {
    expectError(HTTP.send(method, path, null), 404, "NoSuchPlanIdException");
  }

  /** Fetching a plan task of the table answers that the task is unknown. */
  private static void expectNoTask(TableIdentifier id, String task) {
    expectError(HTTP.post(tasksPath(id), taskBody(task)), 404, "NoSuchPlanTaskException");
  }

  private static void expectError(HttpResponse<String> response, int status, String type) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(TwinHttp.json(response).at("/error/type").asText()).isEqualTo(type);
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
