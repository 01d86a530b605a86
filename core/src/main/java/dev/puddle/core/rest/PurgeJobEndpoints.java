package dev.puddle.core.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.Route;
import dev.puddle.core.api.Response;
import dev.puddle.core.metastore.Page;
import dev.puddle.core.metastore.PurgeJob;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.purge.PurgeOutbox;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * A warehouse's purge jobs. {@code GET …/purge-jobs} lists them, newest first, with where each
 * stands and what it deleted and left alone ({@code state} filters by state; {@code pageToken} and
 * {@code pageSize} page as the catalog's listings do); {@code GET …/purge-jobs/{job}} shows one;
 * {@code POST …/purge-jobs/{job}/redrive} retries a failed one through the purge outbox.
 */
final class PurgeJobEndpoints {
  /** The routes served here; the rest of the management API is {@link ManagementEndpoints}'. */
  static final Set<Route> ROUTES =
      EnumSet.of(Route.LIST_PURGE_JOBS, Route.GET_PURGE_JOB, Route.REDRIVE_PURGE_JOB);

  private final PurgeJobs jobs;
  private final PurgeOutbox outbox;

  PurgeJobEndpoints(PurgeJobs jobs, PurgeOutbox outbox) {
    this.jobs = jobs;
    this.outbox = outbox;
  }

  Response handle(Scope scope) {
    return switch (scope.request().route()) {
      case LIST_PURGE_JOBS -> listPurgeJobs(scope);
      case GET_PURGE_JOB -> getPurgeJob(scope);
      case REDRIVE_PURGE_JOB -> redrivePurgeJob(scope);
      default ->
          throw new IllegalStateException("Not a purge job route: " + scope.request().route());
    };
  }

  private Response getPurgeJob(Scope scope) {
    UUID id = jobId(scope);
    PurgeJob job =
        jobs.find(id).filter(found -> inWarehouse(found, scope)).orElseThrow(() -> notFound(id));
    return Response.json(200, json(job).toString());
  }

  /**
   * Queues a failed job again and sends its message once that has committed: the same path as a
   * drop's, so a lost send is the sweep's to repeat. The answer is the job, queued.
   */
  private Response redrivePurgeJob(Scope scope) {
    UUID id = jobId(scope);
    PurgeJob job =
        jobs.redrive(scope.warehouse().realm(), scope.warehouse().id(), id)
            .orElseThrow(() -> notFound(id));
    outbox.dispatch(job.id());
    return Response.json(200, json(job).toString());
  }

  private static boolean inWarehouse(PurgeJob job, Scope scope) {
    return job.realm().equals(scope.warehouse().realm())
        && job.warehouseId() == scope.warehouse().id();
  }

  private static UUID jobId(Scope scope) {
    String value = scope.request().pathParameter("job").orElseThrow();
    try {
      return UUID.fromString(value);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Invalid purge job id %s: expected a UUID", value);
    }
  }

  private static NotFoundException notFound(UUID id) {
    return new NotFoundException("Purge job does not exist: %s", id);
  }

  private Response listPurgeJobs(Scope scope) {
    PurgeJob.State state =
        scope.request().queryParameter("state").map(PurgeJobEndpoints::state).orElse(null);
    Paging paging = Paging.of(scope.request());
    Page<PurgeJob> page =
        jobs.list(
            scope.warehouse().realm(),
            scope.warehouse().id(),
            state,
            paging.pageToken(),
            paging.pageSize());
    return ManagementJson.page("purge-jobs", page, PurgeJobEndpoints::json);
  }

  private static PurgeJob.State state(String value) {
    try {
      return PurgeJob.State.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Invalid state %s: use queued, running, done or failed", value);
    }
  }

  private static ObjectNode json(PurgeJob job) {
    ObjectNode node = RestJson.mapper().createObjectNode();
    node.put("id", job.id().toString());
    node.put("kind", job.kind().sql());
    node.put("identifier", job.identifier());
    node.put("location", job.location());
    node.put("owns-location", job.ownsLocation());
    node.put("metadata-location", job.metadataLocation());
    node.put("state", job.state().sql());
    node.put("phase", job.phase().sql());
    node.put("attempts", job.attempts());
    node.put("deleted-files", job.deletedFiles());
    node.put("skipped-files", job.skippedFiles());
    node.put("last-error", job.lastError());
    node.put("created-at", text(job.createdAt()));
    node.put("updated-at", text(job.updatedAt()));
    node.put("sent-at", text(job.sentAt()));
    node.put("finished-at", text(job.finishedAt()));
    return node;
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
