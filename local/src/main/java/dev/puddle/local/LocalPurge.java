package dev.puddle.local;

import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.aws.SqsPurgeQueue;
import dev.puddle.core.maintenance.BackgroundWork;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.BackgroundJobs;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.ScanPlans;
import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.KindQueues;
import dev.puddle.core.purge.PurgeQueue;
import dev.puddle.core.purge.PurgeSweep;
import dev.puddle.core.storage.Storage;
import dev.puddle.functions.PlanningHandler;
import dev.puddle.functions.PurgeHandler;
import dev.puddle.functions.PurgeSweepHandler;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The purge side of the local twin, laid out as on AWS: an embedded SQS server with the purge queue
 * and its dead-letter queue, the purge handler (purges and table maintenance) fed by a poller that
 * plays Lambda's event source mapping, the planning queue and its dead-letter queue with the
 * planning handler fed the same way, and the sweep handler invoked on a schedule.
 */
public final class LocalPurge implements AutoCloseable {
  /** The purge queue's name; its dead-letter queue is {@code puddle-purge-dlq}. */
  public static final String QUEUE = "puddle-purge";

  /** The planning queue's name; its dead-letter queue is {@code puddle-planning-dlq}. */
  public static final String PLANNING_QUEUE = "puddle-planning";

  private static final int SWEEP_LIMIT = 1000;

  /**
   * How the purge runs: the purge function's time limit, the queue's visibility timeout (at least
   * the time limit, so a message is not redelivered while it is processed) and {@code
   * maxReceiveCount}, the sweep's schedule and settings, and when maintenance runs start on their
   * own.
   */
  public record Options(
      Duration functionTimeout,
      Duration visibilityTimeout,
      int maxReceives,
      Duration sweepInterval,
      PurgeSweep.Settings sweep,
      MaintenanceOutbox.Settings maintenance) {
    /** For people: failed purges are retried after 90 s, five times. */
    public static final Options DEFAULTS =
        new Options(
            Duration.ofSeconds(60),
            Duration.ofSeconds(90),
            5,
            Duration.ofSeconds(30),
            new PurgeSweep.Settings(
                Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofMinutes(3), SWEEP_LIMIT),
            MaintenanceOutbox.Settings.DEFAULTS);
  }

  private final LocalSqs sqs;
  private final LocalSqs.QueuePair queues;
  private final SqsPurgeQueue queue;
  private final LocalSqs.QueuePair planningQueues;
  private final SqsPurgeQueue planningQueue;
  private final S3Objects s3;
  private final PurgePoller poller;
  private final PurgePoller planningPoller;
  private final ScheduledExecutorService sweeper;

  private LocalPurge(
      LocalSqs sqs,
      LocalSqs.QueuePair queues,
      SqsPurgeQueue queue,
      LocalSqs.QueuePair planningQueues,
      SqsPurgeQueue planningQueue,
      S3Objects s3,
      PurgePoller poller,
      PurgePoller planningPoller,
      ScheduledExecutorService sweeper) {
    this.sqs = sqs;
    this.queues = queues;
    this.queue = queue;
    this.planningQueues = planningQueues;
    this.planningQueue = planningQueue;
    this.s3 = s3;
    this.poller = poller;
    this.planningPoller = planningPoller;
    this.sweeper = sweeper;
  }

  /**
   * Starts SQS, creates the queues, sends again every unfinished job (the queues lived in memory
   * and are new), and starts the poller and the sweep.
   */
  public static LocalPurge start(
      String bind, int sqsPort, Options options, Database database, Storage storage) {
    LocalSqs sqs = LocalSqs.start(bind, sqsPort);
    try {
      LocalSqs.QueuePair queues =
          sqs.createQueues(QUEUE, options.visibilityTimeout(), options.maxReceives());
      SqsPurgeQueue queue = new SqsPurgeQueue(sqs.client(), queues.url());
      LocalSqs.QueuePair planningQueues =
          sqs.createQueues(PLANNING_QUEUE, options.visibilityTimeout(), options.maxReceives());
      SqsPurgeQueue planningQueue = new SqsPurgeQueue(sqs.client(), planningQueues.url());
      PurgeQueue routed = new KindQueues(queue, Map.of(JobKind.PLAN, planningQueue));
      BackgroundWork work = new BackgroundWork(database);
      work.jobs().values().forEach(BackgroundJobs::requeueUnfinished);
      S3Objects s3 = new S3Objects(S3Objects.client(storage.clientProperties()));
      PurgeHandler handler =
          new PurgeHandler(
              work.processor(storage.io(), s3, queue, options.maxReceives(), Clock.systemUTC()));
      PurgePoller poller =
          new PurgePoller(sqs.client(), queues, handler, options.functionTimeout());
      PurgePoller planningPoller =
          new PurgePoller(
              sqs.client(),
              planningQueues,
              new PlanningHandler(
                  work.planningProcessor(storage.io(), planningQueue, options.maxReceives())),
              options.functionTimeout());
      PurgeSweepHandler sweep =
          new PurgeSweepHandler(
              work.sweep(routed, options.sweep(), options.maintenance()), new ScanPlans(database));
      // at once, without the grace the schedule gives a drop's own send
      work.sweep(routed, options.sweep().withoutGrace(), options.maintenance()).run();
      poller.start();
      planningPoller.start();
      ScheduledExecutorService sweeper =
          LocalSchedule.every(
              "puddle-purge-sweep", options.sweepInterval(), sweep, options.functionTimeout());
      return new LocalPurge(
          sqs, queues, queue, planningQueues, planningQueue, s3, poller, planningPoller, sweeper);
    } catch (RuntimeException e) {
      sqs.close();
      throw e;
    }
  }

  /** Where drops send their purge jobs. */
  public PurgeQueue queue() {
    return queue;
  }

  /** Where submitted scan plans send their jobs. */
  public PurgeQueue planningQueue() {
    return planningQueue;
  }

  /** The planning queue and its dead-letter queue. */
  public LocalSqs.QueuePair planningQueues() {
    return planningQueues;
  }

  /**
   * What the sweep sends through: scan plans to the planning queue, the rest to the purge queue.
   */
  public PurgeQueue sweepQueue() {
    return new KindQueues(queue, Map.of(JobKind.PLAN, planningQueue));
  }

  public LocalSqs sqs() {
    return sqs;
  }

  public LocalSqs.QueuePair queues() {
    return queues;
  }

  /** Stops the sweep and the poller (letting a batch in progress finish), then SQS. */
  @Override
  public void close() {
    sweeper.shutdownNow();
    poller.close();
    planningPoller.close();
    s3.close();
    sqs.close();
  }
}
