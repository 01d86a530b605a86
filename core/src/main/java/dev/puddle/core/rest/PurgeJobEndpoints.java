package dev.puddle.core.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.api.Response;
import dev.puddle.core.metastore.Page;
import dev.puddle.core.metastore.PurgeJob;
import dev.puddle.core.metastore.PurgeJobs;
import java.time.Instant;
import java.util.Locale;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * {@code GET /admin/v1/warehouses/{warehouse}/purge-jobs}: a warehouse's purge jobs, newest first,
 * with where each stands and what it deleted and left alone. {@code state} filters by state; {@code
 * pageToken} and {@code pageSize} page as the catalog's listings do.
 */
final class PurgeJobEndpoints {
  private final PurgeJobs jobs;

  PurgeJobEndpoints(PurgeJobs jobs) {
    this.jobs = jobs;
  }

  Response listPurgeJobs(Scope scope) {
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
    ObjectNode body = RestJson.mapper().createObjectNode();
    ArrayNode list = body.putArray("purge-jobs");
    page.items().forEach(job -> list.add(json(job)));
    if (page.nextPageToken() != null) {
      body.put("next-page-token", page.nextPageToken());
    }
    return Response.json(200, body.toString());
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
