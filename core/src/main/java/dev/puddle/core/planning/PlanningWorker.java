package dev.puddle.core.planning;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.metastore.BackgroundJobs.Claim;
import dev.puddle.core.metastore.ScanPlanJob;
import dev.puddle.core.metastore.ScanPlanJobs;
import dev.puddle.core.purge.JobWorker;
import dev.puddle.core.purge.LostClaimException;
import dev.puddle.core.rest.RestJson;
import java.util.List;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * Plans a submitted scan in the planning function: the plan's request on the table's metadata file
 * as it was when the plan was submitted, with {@link ScanPlanner} as a request plans it, then its
 * pages stored in one transaction with the job's end. A plan is one step: planning cannot resume
 * halfway through a scan's manifests, so a plan not planned within one invocation fails that
 * attempt and is retried on the message's redelivery, then goes to the dead-letter queue.
 *
 * <p>A plan cancelled or expired while it was planned is found gone when its pages are to be
 * stored; nothing is stored and the job ends with it.
 */
public final class PlanningWorker implements JobWorker<ScanPlanJob> {
  private final ScanPlanJobs jobs;
  private final FileIO io;

  public PlanningWorker(ScanPlanJobs jobs, FileIO io) {
    this.jobs = jobs;
    this.io = io;
  }

  @Override
  public boolean work(Claim<ScanPlanJob> claim, Deadline deadline) {
    ScanPlanJob job = claim.job();
    if (job.done()) {
      return true; // stored by an attempt that could not end the job
    }
    Table table =
        new BaseTable(
            new StaticTableOperations(job.metadataLocation(), io), job.metadataLocation());
    PlanTableScanRequest request = RestJson.read(job.request(), PlanTableScanRequest.class);
    List<FileScanTask> tasks =
        ScanPlanner.plan(ScanPlanner.scan(table, request), deadline)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "The scan could not be planned within the planning function's time"));
    List<String> pages =
        TaskPages.of(
                tasks,
                table.specs(),
                job.tasksPerPage(),
                PlanningSettings.MAX_PAGE_BYTES,
                RestJson::write)
            .pages()
            .stream()
            .map(TaskPages.Page::json)
            .toList();
    if (!jobs.store(claim, pages)) {
      throw new LostClaimException(claim.jobId());
    }
    return true;
  }
}
