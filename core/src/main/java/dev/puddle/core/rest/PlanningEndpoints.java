package dev.puddle.core.rest;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.api.Gzip;
import dev.puddle.core.api.GzipAlongside.Written;
import dev.puddle.core.api.RequestScope;
import dev.puddle.core.api.Response;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.ScanPlans;
import dev.puddle.core.planning.DeleteFileReferences;
import dev.puddle.core.planning.PlanAnswers;
import dev.puddle.core.planning.PlanningOutbox;
import dev.puddle.core.planning.PlanningSettings;
import dev.puddle.core.planning.ScanPlanner;
import dev.puddle.core.planning.TaskPages;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Scan;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/**
 * Server-side scan planning: {@code planTableScan}, {@code fetchPlanningResult}, {@code
 * cancelPlanning} and {@code fetchScanTasks}, the requests and responses iceberg-core's.
 *
 * <p>A scan is planned within the request's deadline when its snapshot's summary counts at most
 * {@link PlanningSettings#asyncDataFiles} data files and planning finishes in time. A plan whose
 * tasks fit one page is answered whole and keeps no durable state; the instance keeps the answer
 * ({@link PlanAnswers}), so that the same request on the same version of the table, as engines send
 * it for every query of a table between two commits, is answered without planning again. A larger
 * one answers its first page and a plan task for each further page, the pages stored in PostgreSQL
 * with the plan, so that whichever instance a {@code fetchScanTasks} reaches answers it, until the
 * plan expires or is cancelled. Any other scan is submitted: recorded with its job and planned by
 * the planning function ({@code PlanningWorker}), {@code fetchPlanningResult} answering {@code
 * submitted} until its pages are stored. A plan id or plan task is found for the caller who planned
 * it only, on the table it was planned for; to anyone else, and once expired or cancelled, it is
 * unknown (404).
 */
final class PlanningEndpoints {
  /** Of the time left when planning starts, what is kept back for storing and answering. */
  private static final double RESERVE = 0.4;

  /**
   * How long {@code fetchPlanningResult} holds its answer at most while the plan is submitted, and
   * at most half the request's time left. Iceberg's client polls a submitted plan after 1, 2, 4, 8,
   * 16 s and so on, so a plan the worker finishes just after a poll would wait for the next one as
   * long again; answered as soon as the worker has stored the pages, it waits for no poll.
   */
  private static final Duration RESULT_WAIT = Duration.ofSeconds(20);

  /** The first and the longest pause between two looks at a submitted plan's row. */
  private static final long FIRST_LOOK_MILLIS = 25;

  private static final long LONGEST_LOOK_MILLIS = 250;

  /**
   * The longest pause where each look is a Data API request, billed and throttled as one: 20 s of
   * looks come to about 25 requests rather than 80. A plan stored just after a look is seen up to a
   * second later, far sooner than the client's next poll (1, 2, 4 s… after the last), and the
   * benchmark's twin (pgjdbc) keeps {@value #LONGEST_LOOK_MILLIS} ms.
   */
  private static final long LONGEST_BILLED_LOOK_MILLIS = 1_000;

  /**
   * About the bytes of JSON of a file scan task without column statistics (a data file of an
   * ordinary path, its residual), to size a response's buffer once rather than doubling it.
   */
  private static final int EXPECTED_TASK_BYTES = 320;

  /** Expired plans a stored plan's transaction removes on the way, besides the sweep. */
  private static final int SWEEP_ON_INSERT = 20;

  private final ScanPlans plans;
  private final CatalogObjects objects;
  private final CredentialEndpoints credentials;
  private final PlanningOutbox outbox;
  private final long longestLookMillis;
  private final PlanAnswers answers = PlanAnswers.ofHeapShare();

  /**
   * @param billedLooks whether each look at a plan's row is a request billed as one (the Data API)
   */
  PlanningEndpoints(
      ScanPlans plans,
      CatalogObjects objects,
      CredentialEndpoints credentials,
      PlanningOutbox outbox,
      boolean billedLooks) {
    this.plans = plans;
    this.longestLookMillis = billedLooks ? LONGEST_BILLED_LOOK_MILLIS : LONGEST_LOOK_MILLIS;
    this.outbox = outbox;
    this.objects = objects;
    this.credentials = credentials;
  }

  @SuppressWarnings(
      "deprecation") // serializing file scan tasks needs the specs (iceberg-core 1.11)
  Response planTableScan(Scope scope) {
    PlanTableScanRequest request =
        RestJson.read(scope.request().body(), PlanTableScanRequest.class);
    TableIdentifier identifier = scope.table();
    Table table = scope.catalog().loadTable(identifier);
    Scan<?, FileScanTask, ?> scan = ScanPlanner.scan(table, request);
    PlanningSettings settings = PlanningSettings.of(scope.warehouse());
    if (dataFiles(table, scan, request) > settings.asyncDataFiles()) {
      return submit(scope, table, request, settings);
    }
    // an answer is kept only without credentials (they expire) and for a metastore table's version
    String version =
        credentials.vendsForScan(scope) || !(table instanceof HasTableOperations operations)
            ? null
            : operations.operations().current().metadataFileLocation();
    String question = version == null ? null : RestJson.write(request);
    if (version != null) {
      Optional<PlanAnswers.Answer> kept =
          answers.get(scope.warehouse(), identifier, version, question, settings.tasksPerPage());
      if (kept.isPresent()) {
        return Response.json(200, kept.get().json(), kept.get().gzipped());
      }
    }
    Deadline budget = RequestScope.current().deadline().withReserve(RESERVE);
    Optional<List<FileScanTask>> planned = ScanPlanner.plan(scan, budget);
    if (planned.isEmpty()) {
      return submit(scope, table, request, settings);
    }
    List<FileScanTask> tasks = planned.get();
    List<Credential> credentials = credentials(scope, identifier, table);
    Function<List<FileScanTask>, PlanTableScanResponse.Builder> answer =
        slice ->
            PlanTableScanResponse.builder()
                .withPlanStatus(PlanStatus.COMPLETED)
                .withSpecsById(table.specs())
                .withFileScanTasks(slice)
                .withCredentials(credentials);
    // the first page is written as the answer, so that a plan of one page is written once; a first
    // page of fewer than every task is written again below, with its plan id, and gzipped then
    TaskPages pages =
        TaskPages.of(
            tasks,
            table.specs(),
            settings.tasksPerPage(),
            PlanningSettings.MAX_PAGE_BYTES,
            RestJson::write,
            slice -> written(answer.apply(slice).build(), slice.size() == tasks.size()));
    if (pages.size() == 1) {
      TaskPages.Page page = pages.pages().get(0);
      if (version == null) {
        return Response.json(200, page.json(), page.gzipped());
      }
      PlanAnswers.Answer whole =
          new PlanAnswers.Answer(
              page.json(), page.gzipped() != null ? page.gzipped() : Gzip.compress(page.json()));
      answers.put(scope.warehouse(), identifier, version, question, settings.tasksPerPage(), whole);
      return Response.json(200, whole.json(), whole.gzipped());
    }
    List<String> rest =
        pages.pages().subList(1, pages.size()).stream().map(TaskPages.Page::json).toList();
    UUID id =
        plans.insert(
            owner(scope),
            RestJson.write(request),
            rest,
            1,
            PlanningSettings.LIFETIME,
            SWEEP_ON_INSERT);
    Written first =
        written(
            answer
                .apply(pages.pages().get(0).tasks())
                .withPlanId(id.toString())
                .withPlanTasks(planTasks(id, IntStream.range(1, pages.size()).boxed().toList()))
                .build(),
            true);
    return Response.json(200, first.text(), first.gzipped());
  }

  /**
   * iceberg-core's JSON of a planTableScan response, its delete file references corrected, and that
   * JSON's gzip, made while it is written: a response of many tasks takes as long to gzip as to
   * write, and it travels gzipped. A response whose references need correcting is rewritten, so it
   * is written without (null), to be compressed as any response is; so is one not {@code answered}
   * as it is.
   */
  private static Written written(PlanTableScanResponse response, boolean answered) {
    if (!answered) {
      return new Written(DeleteFileReferences.corrected(RestJson.write(response), response), null);
    }
    if (DeleteFileReferences.needed(response)) {
      return new Written(DeleteFileReferences.corrected(RestJson.write(response), response), null);
    }
    List<FileScanTask> tasks = response.fileScanTasks();
    return RestJson.writeGzipped(
        response, EXPECTED_TASK_BYTES * (tasks == null ? 1 : tasks.size() + 1));
  }

  /**
   * Leaves the scan to the planning worker: the plan and its job are recorded in one transaction,
   * then the job is sent to the planning queue (or, if that send fails, by the sweep). The worker
   * plans the table's version of now, whatever is committed meanwhile.
   */
  @SuppressWarnings(
      "deprecation") // serializing a planTableScan response needs the specs (iceberg-core 1.11)
  private Response submit(
      Scope scope, Table table, PlanTableScanRequest request, PlanningSettings settings) {
    if (!(table instanceof HasTableOperations operations)) {
      throw new IllegalStateException("Not a metastore table: " + table);
    }
    UUID id =
        plans.submit(
            owner(scope),
            RestJson.write(request),
            operations.operations().current().metadataFileLocation(),
            settings.tasksPerPage(),
            PlanningSettings.LIFETIME,
            SWEEP_ON_INSERT);
    outbox.dispatch(id);
    return Response.json(
        200,
        RestJson.write(
            PlanTableScanResponse.builder()
                .withPlanStatus(PlanStatus.SUBMITTED)
                .withPlanId(id.toString())
                .withSpecsById(table.specs())
                .build()));
  }

  /**
   * What the scan's snapshot summary says it holds, a cheap estimate read before planning: the data
   * files of its snapshot (of the end snapshot of an incremental scan), 0 if unknown.
   */
  private static long dataFiles(
      Table table, Scan<?, FileScanTask, ?> scan, PlanTableScanRequest request) {
    Snapshot snapshot =
        request.startSnapshotId() != null
            ? table.snapshot(request.endSnapshotId())
            : scan instanceof TableScan tableScan ? tableScan.snapshot() : table.currentSnapshot();
    if (snapshot == null || snapshot.summary() == null) {
      return 0;
    }
    try {
      return Long.parseLong(
          snapshot.summary().getOrDefault(SnapshotSummary.TOTAL_DATA_FILES_PROP, "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * A plan planned within its request is completed from the start; a submitted one once the worker
   * has stored its pages. A completed plan's result is a plan task for each stored page.
   */
  Response fetchPlanningResult(Scope scope) {
    ScanPlans.ScanPlan plan = untilPlanned(scope, RequestScope.current().deadline());
    TableIdentifier identifier = scope.table();
    FetchPlanningResultResponse response =
        switch (plan.status()) {
          case SUBMITTED ->
              FetchPlanningResultResponse.builder().withPlanStatus(PlanStatus.SUBMITTED).build();
          case FAILED ->
              FetchPlanningResultResponse.builder()
                  .withPlanStatus(PlanStatus.FAILED)
                  .withErrorResponse(
                      ErrorResponse.builder()
                          .responseCode(500)
                          .withType("ServiceFailureException")
                          .withMessage(
                              "Planning the scan failed: "
                                  + (plan.error() == null ? "unknown" : plan.error()))
                          .build())
                  .build();
          case COMPLETED ->
              FetchPlanningResultResponse.builder()
                  .withPlanStatus(PlanStatus.COMPLETED)
                  .withPlanTasks(planTasks(plan.id(), plan.pages()))
                  .withCredentials(
                      credentials(scope, identifier, scope.catalog().loadTable(identifier)))
                  .build();
        };
    return Response.json(200, RestJson.write(response));
  }

  /**
   * The caller's plan once it is no longer submitted, or as it stands after {@link #RESULT_WAIT}
   * (or half the request's time left, if less): a look at its row, then another after a pause that
   * doubles up to {@value #LONGEST_LOOK_MILLIS} ms ({@value #LONGEST_BILLED_LOOK_MILLIS} ms on the
   * Data API).
   */
  private ScanPlans.ScanPlan untilPlanned(Scope scope, Deadline deadline) {
    ScanPlans.ScanPlan plan = plan(scope);
    long wait = Math.min(RESULT_WAIT.toMillis(), deadline.remainingMillis() / 2);
    long until = System.nanoTime() + wait * 1_000_000;
    long pause = FIRST_LOOK_MILLIS;
    while (plan.status() == ScanPlans.Status.SUBMITTED
        && until - System.nanoTime() > pause * 1_000_000) {
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return plan;
      }
      pause = Math.min(longestLookMillis, pause * 2);
      plan = plan(scope);
    }
    return plan;
  }

  Response cancelPlanning(Scope scope) {
    if (!plans.delete(owner(scope), planId(scope))) {
      throw noSuchPlan(scope);
    }
    return Response.noContent();
  }

  Response fetchScanTasks(Scope scope) {
    FetchScanTasksRequest request =
        RestJson.read(scope.request().body(), FetchScanTasksRequest.class);
    request.validate();
    TableIdentifier table = scope.table();
    if (!objects.exists(scope.warehouse(), table, Kind.TABLE)) {
      throw new NoSuchTableException("Table does not exist: %s", table);
    }
    PlanTask task =
        PlanTask.parse(request.planTask()).orElseThrow(() -> noSuchTask(request.planTask()));
    return plans
        .page(owner(scope), task.plan(), task.page())
        .map(body -> Response.json(200, body))
        .orElseThrow(() -> noSuchTask(request.planTask()));
  }

  /** A plan task: a page of a stored plan, written {@code <plan id>/<page>}. */
  private record PlanTask(UUID plan, int page) {
    @Override
    public String toString() {
      return plan + "/" + page;
    }

    static Optional<PlanTask> parse(String text) {
      int slash = text.lastIndexOf('/');
      try {
        return Optional.of(
            new PlanTask(
                UUID.fromString(text.substring(0, slash)),
                Integer.parseInt(text.substring(slash + 1))));
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    }
  }

  private static List<String> planTasks(UUID plan, List<Integer> pages) {
    return pages.stream().map(page -> new PlanTask(plan, page).toString()).toList();
  }

  /** The caller's plan of the path's id, or 404. */
  private ScanPlans.ScanPlan plan(Scope scope) {
    return plans.find(owner(scope), planId(scope)).orElseThrow(() -> noSuchPlan(scope));
  }

  private static UUID planId(Scope scope) {
    String text = scope.request().pathParameter("plan-id").orElseThrow();
    try {
      return UUID.fromString(text);
    } catch (IllegalArgumentException e) {
      throw noSuchPlan(scope);
    }
  }

  private List<Credential> credentials(Scope scope, TableIdentifier identifier, Table table) {
    return credentials.forScan(
        scope, identifier, new TableBodies.TableLocation(table.location(), table.properties()));
  }

  private static ScanPlans.Owner owner(Scope scope) {
    return new ScanPlans.Owner(
        scope.caller().realm(),
        scope.caller().principal(),
        scope.warehouse().id(),
        scope.table().toString());
  }

  private static NoSuchPlanIdException noSuchPlan(Scope scope) {
    return new NoSuchPlanIdException(
        "The plan id does not exist: %s",
        ErrorMapper.printable(scope.request().pathParameter("plan-id").orElse("")));
  }

  private static NoSuchPlanTaskException noSuchTask(String task) {
    return new NoSuchPlanTaskException(
        "The plan task does not exist: %s", ErrorMapper.printable(task));
  }
}
