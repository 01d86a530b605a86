package dev.puddle.functions;

import dev.puddle.contract.EnvironmentVariable;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.aws.SqsPurgeQueue;
import dev.puddle.core.maintenance.BackgroundWork;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.ScanPlans;
import dev.puddle.core.purge.KindQueues;
import dev.puddle.core.purge.PurgeProcessor;
import dev.puddle.core.purge.PurgeQueue;
import dev.puddle.core.purge.PurgeSweep;
import dev.puddle.core.storage.Storage;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * Wires the purge queue, the purge function (purges and table maintenance) and the sweep from
 * environment variables, once per execution environment. Every setting is an {@link
 * EnvironmentVariable}.
 */
final class PurgeEnvironment {
  private static final int SWEEP_LIMIT = 1000;

  private PurgeEnvironment() {}

  /** The purge queue drops send their jobs to; null when none is configured. */
  static PurgeQueue queueOrNull(Map<String, String> env) {
    return EnvironmentVariable.PURGE_QUEUE_URL.in(env).isEmpty() ? null : queue(env);
  }

  static PurgeProcessor processor(Map<String, String> env) {
    Environment environment = new Environment(env);
    Storage storage = environment.storage();
    S3Objects s3 = new S3Objects(S3Objects.client(storage.clientProperties()));
    return new BackgroundWork(environment.database())
        .processor(
            storage.io(),
            s3,
            queue(env),
            environment.intValue(EnvironmentVariable.PURGE_MAX_RECEIVES),
            Clock.systemUTC());
  }

  /** The scheduled sweep: purge jobs to send again, and expired scan plans, over one database. */
  static PurgeSweepHandler sweepHandler(Map<String, String> env) {
    Environment environment = new Environment(env);
    Database database = environment.database();
    return new PurgeSweepHandler(sweep(env, database), new ScanPlans(database));
  }

  private static PurgeSweep sweep(Map<String, String> env, Database database) {
    Environment environment = new Environment(env);
    return new BackgroundWork(database)
        .sweep(
            new KindQueues(queue(env), PlanningEnvironment.queues(env)),
            sweepSettings(env),
            new MaintenanceOutbox.Settings(
                Duration.ofHours(
                    environment.intValue(EnvironmentVariable.MAINTENANCE_INTERVAL_HOURS)),
                MaintenanceOutbox.Settings.DEFAULTS.debounce()));
  }

  /**
   * The sweep's windows: {@link EnvironmentVariable#PURGE_SWEEP_GRACE_SECONDS}, and the stale
   * windows of the purge queue's jobs ({@link EnvironmentVariable#PURGE_SWEEP_STALE_MINUTES}) and
   * of scan plans ({@link EnvironmentVariable#PLANNING_SWEEP_STALE_MINUTES}). A window that is not
   * a whole number, or not positive, stops the function at init.
   */
  static PurgeSweep.Settings sweepSettings(Map<String, String> env) {
    Environment environment = new Environment(env);
    return new PurgeSweep.Settings(
        Duration.ofSeconds(
            atLeast(0, environment, EnvironmentVariable.PURGE_SWEEP_GRACE_SECONDS, "seconds")),
        Duration.ofMinutes(
            atLeast(1, environment, EnvironmentVariable.PURGE_SWEEP_STALE_MINUTES, "minutes")),
        Duration.ofMinutes(
            atLeast(1, environment, EnvironmentVariable.PLANNING_SWEEP_STALE_MINUTES, "minutes")),
        SWEEP_LIMIT);
  }

  private static int atLeast(
      int least, Environment environment, EnvironmentVariable variable, String unit) {
    int value = environment.intValue(variable);
    if (value < least) {
      throw new IllegalStateException(
          variable.key() + " must be at least " + least + " (" + unit + "): " + value);
    }
    return value;
  }

  private static PurgeQueue queue(Map<String, String> env) {
    Environment environment = new Environment(env);
    return new SqsPurgeQueue(
        SqsPurgeQueue.awsClient(environment.region()),
        environment.required(EnvironmentVariable.PURGE_QUEUE_URL));
  }
}
