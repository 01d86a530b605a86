package dev.puddle.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.api.Response;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.MaintenanceJob;
import dev.puddle.core.metastore.MaintenanceJobs;
import dev.puddle.core.metastore.Page;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * {@code /admin/v1/warehouses/{warehouse}/maintenance-jobs}: {@code GET} lists a warehouse's
 * maintenance runs, newest first, with where each stands and what it did ({@code state} filters,
 * {@code pageToken} and {@code pageSize} page); {@code POST} with {@code
 * {"namespace":[...],"table":"..."}} starts a run of that table now (202 with the job), or 409 if
 * one is already queued or running.
 */
final class MaintenanceJobEndpoints {
  private final MaintenanceJobs jobs;
  private final MaintenanceOutbox outbox;
  private final CatalogObjects objects;

  MaintenanceJobEndpoints(MaintenanceJobs jobs, MaintenanceOutbox outbox, CatalogObjects objects) {
    this.jobs = jobs;
    this.outbox = outbox;
    this.objects = objects;
  }

  Response listMaintenanceJobs(Scope scope) {
    MaintenanceJob.State state =
        scope.request().queryParameter("state").map(MaintenanceJobEndpoints::state).orElse(null);
    Paging paging = Paging.of(scope.request());
    Page<MaintenanceJob> page =
        jobs.list(
            scope.warehouse().realm(),
            scope.warehouse().id(),
            state,
            paging.pageToken(),
            paging.pageSize());
    return ManagementJson.page("maintenance-jobs", page, MaintenanceJobEndpoints::json);
  }

  Response startMaintenance(Scope scope) {
    JsonNode body = ManagementJson.body(scope.request().body());
    TableIdentifier table =
        TableIdentifier.of(ManagementJson.namespace(body), ManagementJson.text(body, "table"));
    CatalogObject row =
        objects
            .find(scope.warehouse(), table)
            .filter(object -> object.kind() == Kind.TABLE)
            .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", table));
    UUID job =
        outbox
            .start(row.id())
            .orElseThrow(
                () ->
                    new AlreadyExistsException(
                        "A maintenance run of %s is already queued or running", table));
    return Response.json(202, json(jobs.find(job).orElseThrow()).toString());
  }

  private static MaintenanceJob.State state(String value) {
    try {
      return MaintenanceJob.State.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Invalid state %s: use queued, running, done or failed", value);
    }
  }

  private static ObjectNode json(MaintenanceJob job) {
    ObjectNode node = RestJson.mapper().createObjectNode();
    node.put("id", job.id().toString());
    node.put("table-id", job.tableId().toString());
    node.put("identifier", job.identifier());
    node.put("trigger", job.trigger().wireName());
    node.put("state", job.state().wireName());
    node.put("phase", job.phase().wireName());
    node.put("attempts", job.attempts());
    MaintenanceJob.Counts counts = job.counts();
    node.put("snapshots-expired", counts.snapshotsExpired());
    ObjectNode deleted = node.putObject("deleted-files");
    deleted.put("data", counts.dataFiles());
    deleted.put("delete", counts.deleteFiles());
    deleted.put("manifest", counts.manifests());
    deleted.put("manifest-list", counts.manifestLists());
    deleted.put("statistics", counts.statisticsFiles());
    deleted.put("metadata", counts.metadataFiles());
    deleted.put("orphan", counts.orphanFiles());
    node.put("deleted-bytes", counts.bytes());
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
