package dev.puddle.core.planning;

import dev.puddle.core.api.Deadline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Scan;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.types.Types;

/**
 * Plans a {@code planTableScan} request with iceberg-core's own scans, as a client planning for
 * itself would: a point-in-time {@link TableScan} of the request's snapshot (the main branch's
 * current one without), or an incremental append scan from {@code start-snapshot-id} (exclusive, as
 * the specification has it) to {@code end-snapshot-id}; the request's projection, filter, case
 * sensitivity and column statistics applied. The tasks carry the residuals iceberg-core computes
 * for each file's partition, and the delete files that apply to it.
 *
 * <p>With {@code use-snapshot-schema} false (a branch, or the main branch's head) names bind to the
 * table's current schema, which iceberg-core does for a scan of a branch: the scan reads the branch
 * the snapshot heads, the main branch first. A snapshot no branch heads is read with its own
 * schema, the only one it can be bound to without a branch.
 */
public final class ScanPlanner {
  /** How many tasks are planned between two looks at the deadline. */
  private static final int TASKS_PER_CHECK = 256;

  /**
   * Where the scan's manifests are read: in the planning thread, one after another. iceberg-core
   * reads a scan's manifests through its {@code ParallelIterable}, which keeps two per worker
   * thread in flight and hands out the next ones only when the planning thread, finding no task
   * ready, looks again after a 10 ms sleep: manifests the instance has cached (a millisecond or two
   * each) then wait for those sleeps, and 100 of them took about 260 ms to plan on two worker
   * threads against about 50 ms read one after another in the planning thread, which never sleeps
   * as each manifest's tasks are ready when it looks. A Lambda function of the read function's
   * memory has about half a vCPU besides, so more threads would share it. The manifests' S3 reads,
   * which would then follow one another, are made ahead of it, several at a time ({@link
   * ManifestPrefetch}).
   */
  private static final ExecutorService IN_CALLING_THREAD = new InCallingThread();

  private ScanPlanner() {}

  /** The request's scan of {@code table}, not yet planned. */
  public static Scan<?, FileScanTask, ?> scan(Table table, PlanTableScanRequest request) {
    request.validate();
    if (request.startSnapshotId() != null) {
      return configure(
          table
              .newIncrementalAppendScan()
              .fromSnapshotExclusive(request.startSnapshotId())
              .toSnapshot(request.endSnapshotId()),
          request);
    }
    TableScan scan = table.newScan();
    Long snapshotId = request.snapshotId();
    if (snapshotId != null) {
      if (table.snapshot(snapshotId) == null) {
        throw new IllegalArgumentException("Cannot find snapshot with ID " + snapshotId);
      }
      Optional<String> branch =
          request.useSnapshotSchema() ? Optional.empty() : branchAt(table, snapshotId);
      scan = branch.isPresent() ? scan.useRef(branch.get()) : scan.useSnapshot(snapshotId);
    }
    return configure(scan, request);
  }

  /**
   * Plans {@code scan} while {@code deadline} allows another step: the tasks, or empty if time ran
   * out first (the plan is then left to the planning worker).
   */
  public static Optional<List<FileScanTask>> plan(
      Scan<?, FileScanTask, ?> scan, Deadline deadline) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (ManifestPrefetch prefetch = prefetch(scan);
        CloseableIterable<FileScanTask> planned = scan.planFiles()) {
      for (FileScanTask task : planned) {
        tasks.add(task);
        if (tasks.size() % TASKS_PER_CHECK == 0 && !deadline.allowsAnotherStep()) {
          return Optional.empty();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return deadline.allowsAnotherStep() ? Optional.of(tasks) : Optional.empty();
  }

  /**
   * Starts fetching the manifests of a point-in-time scan; an incremental scan reads those added
   * between its snapshots, which it finds as it plans, and is planned without.
   */
  private static ManifestPrefetch prefetch(Scan<?, FileScanTask, ?> scan) {
    if (scan instanceof TableScan tableScan && tableScan.snapshot() != null) {
      Table table = tableScan.table();
      return ManifestPrefetch.start(
          table.io(), table.specs(), tableScan.snapshot(), scan.filter(), scan.isCaseSensitive());
    }
    return ManifestPrefetch.none();
  }

  /** The branch whose head is {@code snapshotId}: main if it is, else any, else none. */
  private static Optional<String> branchAt(Table table, long snapshotId) {
    SnapshotRef main = table.refs().get(SnapshotRef.MAIN_BRANCH);
    if (main != null && main.snapshotId() == snapshotId) {
      return Optional.of(SnapshotRef.MAIN_BRANCH);
    }
    return table.refs().entrySet().stream()
        .filter(ref -> ref.getValue().isBranch() && ref.getValue().snapshotId() == snapshotId)
        .map(Map.Entry::getKey)
        .sorted()
        .findFirst();
  }

  private static void checkNames(Schema schema, List<String> names, boolean caseSensitive) {
    if (names == null) {
      return;
    }
    for (String name : names) {
      Types.NestedField field =
          caseSensitive ? schema.findField(name) : schema.caseInsensitiveFindField(name);
      if (field == null) {
        throw new ValidationException("Cannot find field '%s' in the scan's schema", name);
      }
    }
  }

  private static <T extends Scan<T, FileScanTask, ?>> T configure(
      T scan, PlanTableScanRequest request) {
    T configured = scan.caseSensitive(request.caseSensitive()).planWith(IN_CALLING_THREAD);
    // iceberg-core passes over names it cannot find; a request naming one is answered with 400
    Schema schema = scan.schema();
    checkNames(schema, request.select(), request.caseSensitive());
    checkNames(schema, request.statsFields(), request.caseSensitive());
    if (request.select() != null) {
      configured = configured.select(request.select());
    }
    if (request.filter() != null) {
      configured = configured.filter(request.filter());
    }
    if (request.statsFields() != null) {
      configured = configured.includeColumnStats(request.statsFields());
    }
    if (request.minRowsRequested() != null) {
      // a hint: every task is still planned, which is always correct
      configured = configured.minRowsRequested(request.minRowsRequested());
    }
    return configured;
  }

  /** An executor that runs each task at once, in the thread that hands it over. */
  private static final class InCallingThread extends AbstractExecutorService {
    @Override
    public void execute(Runnable task) {
      task.run();
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return false;
    }

    @Override
    public boolean isTerminated() {
      return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return false;
    }
  }
}
