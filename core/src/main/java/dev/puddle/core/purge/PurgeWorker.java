package dev.puddle.core.purge;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.metastore.BackgroundJobs.Claim;
import dev.puddle.core.metastore.PurgeJob;
import dev.puddle.core.metastore.PurgeJob.Checkpoint;
import dev.puddle.core.metastore.PurgeJob.Phase;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.storage.S3Location;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.io.FileIO;

/**
 * Purges one claimed job, step by step, checkpointing after each, until it is done or the deadline
 * asks to stop:
 *
 * <ol>
 *   <li>{@code reachable}: reads the metadata and manifests (see {@link ReachableFiles}) and notes
 *       the files they reach outside the object's own location. Everything inside it goes in the
 *       last phase, so reading comes before any delete.
 *   <li>{@code outside}: if the warehouse sets {@value #DELETE_OUTSIDE}, deletes the noted files,
 *       except those inside the location of a table or view that still exists; otherwise counts
 *       them as skipped.
 *   <li>{@code location}: lists and deletes every object under the object's own location, 1000 keys
 *       a step. Registered objects own no location and skip this.
 * </ol>
 *
 * <p>Each step is idempotent: a step redone after a crash finds its deleted files gone and its
 * noted files already noted.
 */
public final class PurgeWorker implements JobWorker<PurgeJob> {
  /** The warehouse property that lets purges delete files outside a table's own location. */
  public static final String DELETE_OUTSIDE = "purge.delete-outside-location";

  private final PurgeJobs jobs;
  private final Warehouses warehouses;
  private final FileIO io;
  private final S3Objects s3;

  public PurgeWorker(PurgeJobs jobs, Warehouses warehouses, FileIO io, S3Objects s3) {
    this.jobs = jobs;
    this.warehouses = warehouses;
    this.io = io;
    this.s3 = s3;
  }

  @Override
  public boolean work(Claim<PurgeJob> claim, Deadline deadline) {
    PurgeJob job = claim.job();
    ReachableFiles reachable = new ReachableFiles(io, job);
    Phase phase = job.phase();
    String at = job.resumeAt();
    boolean first = true;
    while (phase != Phase.DONE) {
      if (!first && !deadline.allowsAnotherStep()) {
        return false;
      }
      first = false;
      List<String> outside = List.of();
      Checkpoint checkpoint;
      switch (phase) {
        case REACHABLE -> {
          ReachableFiles.Step step = reachable.step(at);
          outside = outsideLocation(job, step.files());
          checkpoint =
              step.next() == null
                  ? new Checkpoint(Phase.OUTSIDE, null, 0, 0)
                  : new Checkpoint(Phase.REACHABLE, step.next(), 0, 0);
        }
        case OUTSIDE -> checkpoint = outsideStep(job, at);
        case LOCATION -> checkpoint = locationStep(job, at);
        default -> throw new IllegalStateException("Unexpected phase " + phase);
      }
      if (!jobs.checkpoint(claim, checkpoint, outside)) {
        throw new LostClaimException(job.id());
      }
      phase = checkpoint.phase();
      at = checkpoint.resumeAt();
    }
    return true;
  }

  /** Of the files a step reached, those outside the object's own location: all, if it owns none. */
  private static List<String> outsideLocation(PurgeJob job, List<String> files) {
    Optional<S3Location> own =
        job.ownsLocation() ? S3Location.parse(job.location()) : Optional.empty();
    Set<String> outside = new LinkedHashSet<>();
    for (String file : files) {
      boolean inside =
          own.isPresent()
              && S3Location.parse(file).map(location -> location.isBelow(own.get())).orElse(false);
      if (!inside) {
        outside.add(file);
      }
    }
    return new ArrayList<>(outside);
  }

  private Checkpoint outsideStep(PurgeJob job, String after) {
    boolean allowed =
        Boolean.parseBoolean(warehouses.properties(job.warehouseId()).get(DELETE_OUTSIDE));
    if (!allowed) {
      return new Checkpoint(Phase.LOCATION, null, 0, jobs.countOutsideFiles(job.id()));
    }
    List<String> paths = jobs.outsideFiles(job.id(), after, S3Objects.BATCH);
    if (paths.isEmpty()) {
      return new Checkpoint(Phase.LOCATION, null, 0, 0);
    }
    // compared as s3:// URIs, the scheme Puddle stores locations with, whatever an engine wrote
    List<String> uris =
        paths.stream()
            .map(path -> S3Location.parse(path).map(S3Location::uri).orElse(path))
            .toList();
    Set<String> inUse = jobs.insideLiveObjects(uris);
    Map<String, List<String>> keysByBucket = new LinkedHashMap<>();
    long skipped = 0;
    for (String path : paths) {
      Optional<S3Location> location = S3Location.parse(path);
      if (location.isEmpty() || inUse.contains(location.get().uri())) {
        skipped++; // still another table's or view's, or not on S3
      } else {
        keysByBucket
            .computeIfAbsent(location.get().bucket(), bucket -> new ArrayList<>())
            .add(location.get().key());
      }
    }
    long deleted = 0;
    for (Map.Entry<String, List<String>> bucket : keysByBucket.entrySet()) {
      deleted += s3.delete(bucket.getKey(), bucket.getValue());
    }
    return paths.size() < S3Objects.BATCH
        ? new Checkpoint(Phase.LOCATION, null, deleted, skipped)
        : new Checkpoint(Phase.OUTSIDE, paths.get(paths.size() - 1), deleted, skipped);
  }

  private Checkpoint locationStep(PurgeJob job, String after) {
    if (!job.ownsLocation()) {
      return new Checkpoint(Phase.DONE, null, 0, 0);
    }
    S3Location base =
        S3Location.parse(job.location())
            .filter(location -> !location.key().isEmpty())
            .orElseThrow(
                () ->
                    new PurgeException(
                        "Cannot purge a location that is not an S3 folder: " + job.location()));
    if (after == null) {
      // a registered table may point into this location: its files are not ours to delete
      List<String> inUse = jobs.liveObjectsWithin(job.location());
      if (!inUse.isEmpty()) {
        throw new PurgeException(
            "Location " + job.location() + " is in use by the table or view at " + inUse.get(0));
      }
    }
    S3Objects.Listing listing = s3.list(base.bucket(), base.key() + "/", after);
    long deleted = listing.keys().isEmpty() ? 0 : s3.delete(base.bucket(), listing.keys());
    return listing.continueAfter() == null
        ? new Checkpoint(Phase.DONE, null, deleted, 0)
        : new Checkpoint(Phase.LOCATION, listing.continueAfter(), deleted, 0);
  }
}
