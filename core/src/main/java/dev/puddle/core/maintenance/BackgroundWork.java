package dev.puddle.core.maintenance;

import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.metastore.BackgroundJobs;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.DroppedObjects;
import dev.puddle.core.metastore.MaintenanceJobs;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.metastore.ScanPlanJobs;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.planning.PlanningWorker;
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
 * purge of dropped objects and the maintenance of tables, and (on the planning queue, to the
 * planning function) submitted scan plans.
 */
public final class BackgroundWork {
  private final Database database;
  private final PurgeJobs purges;
  private final MaintenanceJobs maintenance;
  private final ScanPlanJobs plans;

  public BackgroundWork(Database database) {
    this.database = database;
    this.purges = new PurgeJobs(database);
    this.maintenance = new MaintenanceJobs(database);
    this.plans = new ScanPlanJobs(database);
  }

  /** The job rows of each kind. */
  public Map<JobKind, BackgroundJobs<?>> jobs() {
    Map<JobKind, BackgroundJobs<?>> jobs = new EnumMap<>(JobKind.class);
    jobs.put(JobKind.PURGE, purges);
    jobs.put(JobKind.MAINTENANCE, maintenance);
    jobs.put(JobKind.PLAN, plans);
    return jobs;
  }

  /**
   * The planning function's processor: one lane, submitted scan plans, planned over {@code io};
   * continuations and busy plans go back to {@code planningQueue}.
   */
  public PurgeProcessor planningProcessor(FileIO io, PurgeQueue planningQueue, int maxReceives) {
    return new PurgeProcessor(
        planningQueue,
        maxReceives,
        List.of(new PurgeProcessor.Lane<>(JobKind.PLAN, plans, new PlanningWorker(plans, io))));
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
   * starts the maintenance runs that are due. {@code queue} must send each kind to its own queue
   * ({@link dev.puddle.core.purge.KindQueues}): scan plans go to the planning queue.
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
