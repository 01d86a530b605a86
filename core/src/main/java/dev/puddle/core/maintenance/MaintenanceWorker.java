package dev.puddle.core.maintenance;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.catalog.PuddleCatalog;
import dev.puddle.core.catalog.TableCommit;
import dev.puddle.core.catalog.VersionCache;
import dev.puddle.core.metastore.BackgroundJobs.Claim;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.IdempotencyMark;
import dev.puddle.core.metastore.MaintenanceJob;
import dev.puddle.core.metastore.MaintenanceJob.Counts;
import dev.puddle.core.metastore.MaintenanceJob.FileKind;
import dev.puddle.core.metastore.MaintenanceJob.NotedFile;
import dev.puddle.core.metastore.MaintenanceJob.Phase;
import dev.puddle.core.metastore.MaintenanceJobs;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.purge.JobWorker;
import dev.puddle.core.purge.LostClaimException;
import dev.puddle.core.purge.PurgeOutbox;
import dev.puddle.core.storage.S3Location;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;

/**
 * Runs one claimed maintenance job, step by step, checkpointing after each:
 *
 * <ol>
 *   <li>{@code expire}: commits the expiry {@link SnapshotExpiry} computes, through {@link
 *       TableCommit}'s locked path, re-planned on whatever version is current once the row is
 *       locked. The position noted is the metadata file the expiry was based on.
 *   <li>{@code plan}: notes the files under the table's own location that only the expired
 *       snapshots reached, that nothing of the table's current metadata reaches ({@link
 *       TableFiles}).
 *   <li>{@code delete}: deletes the noted files, 1000 in one {@code DeleteObjects} a step.
 *   <li>{@code orphans}: lists the table's location, 1000 keys a step, and deletes what no metadata
 *       of the table reaches: metadata files dropped from the metadata log (if {@code
 *       write.metadata.delete-after-commit.enabled}; the log is as long as {@code
 *       write.metadata.previous-versions-max} lets it be), older than every version the log keeps,
 *       and other files older than the orphan age.
 * </ol>
 *
 * <p>A table with {@code gc.enabled=false} is left alone. A step redone after a crash finds its
 * expiry committed (nothing more to expire), its noted files noted, its deleted files gone.
 */
public final class MaintenanceWorker implements JobWorker<MaintenanceJob> {
  /** The actor of the commits maintenance makes, as the change feed records them. */
  static final String ACTOR = "puddle-maintenance";

  private final MaintenanceJobs jobs;
  private final Warehouses warehouses;
  private final Namespaces namespaces;
  private final CatalogObjects objects;
  private final PurgeJobs purges;
  private final FileIO io;
  private final S3Objects s3;
  private final Clock clock;

  public MaintenanceWorker(
      MaintenanceJobs jobs,
      Warehouses warehouses,
      Namespaces namespaces,
      CatalogObjects objects,
      PurgeJobs purges,
      FileIO io,
      S3Objects s3,
      Clock clock) {
    this.jobs = jobs;
    this.warehouses = warehouses;
    this.namespaces = namespaces;
    this.objects = objects;
    this.purges = purges;
    this.io = io;
    this.s3 = s3;
    this.clock = clock;
  }

  /** The step's outcome: where the job goes on, what the step did and the files it noted. */
  private record Step(Phase phase, String resumeAt, Counts done, List<NotedFile> noted) {
    static Step to(Phase phase, String resumeAt, Counts done) {
      return new Step(phase, resumeAt, done, List.of());
    }
  }

  /** The table a job maintains, as it is now, and its warehouse's current properties. */
  private record Target(
      Warehouse warehouse, CatalogObject row, Map<String, String> warehouseProperties) {
    TableMetadata metadata() {
      return TableMetadataParser.fromJson(row.metadataLocation(), row.metadataJson());
    }

    MaintenanceProperties settings() {
      return new MaintenanceProperties(metadata().properties(), warehouseProperties);
    }
  }

  @Override
  public boolean work(Claim<MaintenanceJob> claim, Deadline deadline) {
    MaintenanceJob job = claim.job();
    Phase phase = job.phase();
    String at = job.resumeAt();
    boolean first = true;
    while (phase != Phase.DONE) {
      if (!first && !deadline.allowsAnotherStep()) {
        return false;
      }
      first = false;
      Optional<Target> target = target(job);
      Step step;
      if (target.isEmpty() || !target.get().settings().gcEnabled()) {
        step = Step.to(Phase.DONE, null, Counts.NONE); // dropped, or gc.enabled=false
      } else {
        step =
            switch (phase) {
              case EXPIRE -> expire(target.get());
              case PLAN -> plan(target.get(), at);
              case DELETE -> delete(job, at);
              case ORPHANS -> orphans(target.get(), at);
              case DONE -> throw new IllegalStateException("Unexpected phase " + phase);
            };
      }
      if (!jobs.checkpoint(claim, step.phase(), step.resumeAt(), step.done(), step.noted())) {
        throw new LostClaimException(job.id());
      }
      phase = step.phase();
      at = step.resumeAt();
    }
    return true;
  }

  private Optional<Target> target(MaintenanceJob job) {
    Optional<TableIdentifier> identifier = jobs.table(job.tableId());
    if (identifier.isEmpty()) {
      return Optional.empty();
    }
    Warehouse warehouse = warehouses.get(job.realm(), job.warehouseName());
    return objects
        .find(warehouse, identifier.get())
        .filter(row -> row.id().equals(job.tableId()) && row.kind() == Kind.TABLE)
        .map(row -> new Target(warehouse, row, warehouses.properties(warehouse.id())));
  }

  private Step expire(Target target) {
    if (!target.settings().expiryEnabled()) {
      return Step.to(Phase.ORPHANS, null, Counts.NONE);
    }
    // the change runs under the row lock, on the version current then; what it did is read here
    String[] based = {null};
    long[] expired = {0};
    PuddleCatalog catalog =
        new PuddleCatalog(
            target.warehouse(),
            namespaces,
            objects,
            io,
            new PurgeOutbox(purges, null),
            new VersionCache<>(0),
            // the commit's event names maintenance as its actor
            new Change(null, target.warehouse().realm(), ACTOR, IdempotencyMark.NONE));
    new TableCommit(catalog)
        .commit(
            target.row().identifier(),
            current -> {
              MaintenanceProperties settings =
                  new MaintenanceProperties(current.properties(), target.warehouseProperties());
              if (!settings.gcEnabled() || !settings.expiryEnabled()) {
                return current; // a commit since turned it off
              }
              TableMetadata updated = SnapshotExpiry.expire(current, settings.expiryDefaults(), io);
              based[0] = updated == current ? null : current.metadataFileLocation();
              expired[0] = current.snapshots().size() - updated.snapshots().size();
              return updated;
            });
    return based[0] == null
        ? Step.to(Phase.ORPHANS, null, Counts.NONE)
        : Step.to(Phase.PLAN, based[0], Counts.expired(expired[0]));
  }

  /**
   * Notes the unreachable files under the table's own location: only those are the table's to
   * delete (a file outside it, e.g. imported by {@code add_files}, may be another's; a registered
   * table owns no location).
   */
  private Step plan(Target target, String basedOn) {
    Optional<S3Location> own =
        target.row().ownsLocation()
            ? S3Location.parse(target.row().location()).filter(l -> !l.key().isEmpty())
            : Optional.empty();
    if (own.isEmpty()) {
      return Step.to(Phase.ORPHANS, null, Counts.NONE);
    }
    TableMetadata before = TableMetadataParser.read(io, basedOn);
    List<NotedFile> unreachable =
        new TableFiles(io)
            .unreachable(before, target.metadata()).stream()
                .filter(
                    file ->
                        S3Location.parse(file.path())
                            .map(location -> location.isBelow(own.get()))
                            .orElse(false))
                .toList();
    return new Step(Phase.DELETE, null, Counts.NONE, unreachable);
  }

  private Step delete(MaintenanceJob job, String after) {
    List<NotedFile> batch = jobs.noted(job.id(), after, S3Objects.BATCH);
    Counts done = Counts.NONE;
    Map<String, List<String>> keysByBucket = new LinkedHashMap<>();
    for (NotedFile file : batch) {
      Optional<S3Location> location = S3Location.parse(file.path());
      if (location.isPresent()) {
        keysByBucket
            .computeIfAbsent(location.get().bucket(), bucket -> new ArrayList<>())
            .add(location.get().key());
        done = done.plus(Counts.deleted(file.kind(), file.size()));
      }
    }
    for (Map.Entry<String, List<String>> bucket : keysByBucket.entrySet()) {
      s3.delete(bucket.getKey(), bucket.getValue());
    }
    return batch.size() < S3Objects.BATCH
        ? Step.to(Phase.ORPHANS, null, done)
        : Step.to(Phase.DELETE, batch.get(batch.size() - 1).path(), done);
  }

  private Step orphans(Target target, String after) {
    MaintenanceProperties settings = target.settings();
    CatalogObject row = target.row();
    Optional<S3Location> base =
        S3Location.parse(row.location()).filter(location -> !location.key().isEmpty());
    boolean metadataFiles = settings.deleteOldMetadata();
    boolean orphanFiles = settings.orphanRemovalEnabled();
    // a registered table's location may hold files that are not its own, and so may a location
    // another table or view lies in
    if (base.isEmpty()
        || !row.ownsLocation()
        || !(metadataFiles || orphanFiles)
        || purges.liveObjectsWithin(row.location()).size() > 1) {
      return Step.to(Phase.DONE, null, Counts.NONE);
    }
    TableMetadata metadata = target.metadata();
    Set<String> reachable = new TableFiles(io).reachable(metadata);
    Instant orphanBefore = clock.instant().minus(settings.orphanAge());
    long oldestKept = oldestVersion(metadata);
    String metadataFolder = base.get().key() + "/metadata/";
    S3Objects.Listing listing = s3.list(base.get().bucket(), base.get().key() + "/", after);
    List<String> keys = new ArrayList<>();
    Counts done = Counts.NONE;
    for (S3Objects.Listed object : listing.objects()) {
      String uri = new S3Location(base.get().bucket(), object.key()).uri();
      if (reachable.contains(uri)) {
        continue;
      }
      FileKind kind = null;
      if (object.key().startsWith(metadataFolder) && object.key().endsWith(".metadata.json")) {
        // metadata files dropped from the log go only if Iceberg's own property says so, and only
        // those older than every version kept: a commit in flight writes a newer one
        long version = version(object.key().substring(metadataFolder.length()));
        if (metadataFiles && version >= 0 && version < oldestKept) {
          kind = FileKind.METADATA;
        }
      } else if (orphanFiles && object.lastModified().isBefore(orphanBefore)) {
        kind = FileKind.ORPHAN;
      }
      if (kind != null) {
        keys.add(object.key());
        done = done.plus(Counts.deleted(kind, object.size()));
      }
    }
    if (!keys.isEmpty()) {
      s3.delete(base.get().bucket(), keys);
    }
    return listing.continueAfter() == null
        ? Step.to(Phase.DONE, null, done)
        : Step.to(Phase.ORPHANS, listing.continueAfter(), done);
  }

  /** The lowest version among the current metadata file and those of its log. */
  private static long oldestVersion(TableMetadata metadata) {
    long oldest = version(fileName(metadata.metadataFileLocation()));
    for (TableMetadata.MetadataLogEntry entry : metadata.previousFiles()) {
      long version = version(fileName(entry.file()));
      if (version >= 0 && (oldest < 0 || version < oldest)) {
        oldest = version;
      }
    }
    return oldest;
  }

  private static String fileName(String location) {
    return location.substring(location.lastIndexOf('/') + 1);
  }

  /**
   * The version of a metadata file named as Iceberg names them, {@code 00042-<uuid>.metadata.json},
   * or -1 for a file named otherwise, which is left alone.
   */
  static long version(String fileName) {
    int dash = fileName.indexOf('-');
    if (dash <= 0) {
      return -1;
    }
    for (int i = 0; i < dash; i++) {
      if (!Character.isDigit(fileName.charAt(i))) {
        return -1;
      }
    }
    try {
      return Long.parseLong(fileName.substring(0, dash));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
