package dev.puddle.core.maintenance;

import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.metastore.BackgroundJobs;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.DroppedObjects;
import dev.puddle.core.metastore.MaintenanceJobs;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeProcessor;
import dev.puddle.core.purge.PurgeQueue;
import dev.puddle.core.purge.PurgeSweep;
import dev.puddle.core.purge.PurgeWorker;
import java.time.Clock;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.io.FileIO;

/**
 * The jobs the purge queue carries, wired once for the purge function, its sweep and the twin: the
 * purge of dropped objects and the maintenance of tables.
 */
public final class BackgroundWork {
  private final Database database;
  private final PurgeJobs purges;
  private final MaintenanceJobs maintenance;

  public BackgroundWork(Database database) {
    this.database = database;
    this.purges = new PurgeJobs(database);
    this.maintenance = new MaintenanceJobs(database);
  }

  /** The job rows of each kind. */
  public Map<JobKind, BackgroundJobs<?>> jobs() {
    Map<JobKind, BackgroundJobs<?>> jobs = new EnumMap<>(JobKind.class);
    jobs.put(JobKind.PURGE, purges);
    jobs.put(JobKind.MAINTENANCE, maintenance);
    return jobs;
  }

  /** The purge function's processor: a lane per kind, over the storage given. */
  public PurgeProcessor processor(
      FileIO io, S3Objects s3, PurgeQueue queue, int maxReceives, Clock clock) {
    Warehouses warehouses = new Warehouses(database);
    return new PurgeProcessor(
        queue,
        maxReceives,
        List.of(
            new PurgeProcessor.Lane<>(
                JobKind.PURGE, purges, new PurgeWorker(purges, warehouses, io, s3)),
            new PurgeProcessor.Lane<>(
                JobKind.MAINTENANCE,
                maintenance,
                new MaintenanceWorker(
                    maintenance,
                    warehouses,
                    new Namespaces(database),
                    new CatalogObjects(database),
                    purges,
                    io,
                    s3,
                    clock))));
  }

  /**
   * The sweep: purges the dropped objects whose retention ended, re-sends every kind of job, and
   * starts the maintenance runs that are due.
   */
  public PurgeSweep sweep(
      PurgeQueue queue, PurgeSweep.Settings settings, MaintenanceOutbox.Settings schedule) {
    return new PurgeSweep(
        jobs(),
        new DroppedObjects(database),
        queue,
        settings,
        List.of(new MaintenanceOutbox(maintenance, queue, schedule)));
  }
}
