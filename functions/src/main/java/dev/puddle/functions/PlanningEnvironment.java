package dev.puddle.functions;

import dev.puddle.contract.EnvironmentVariable;
import dev.puddle.core.aws.SqsPurgeQueue;
import dev.puddle.core.maintenance.BackgroundWork;
import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeProcessor;
import dev.puddle.core.purge.PurgeQueue;
import java.util.Map;

/**
 * Wires the planning queue and the planning function from environment variables, once per execution
 * environment. Every setting is an {@link EnvironmentVariable}.
 */
final class PlanningEnvironment {
  private PlanningEnvironment() {}

  /** The planning queue submitted plans send their jobs to; null when none is configured. */
  static PurgeQueue queueOrNull(Map<String, String> env) {
    return EnvironmentVariable.PLANNING_QUEUE_URL.in(env).isEmpty() ? null : queue(env);
  }

  /** The sweep's route for plans: to the planning queue if there is one, else none. */
  static Map<JobKind, PurgeQueue> queues(Map<String, String> env) {
    PurgeQueue queue = queueOrNull(env);
    return queue == null ? Map.of() : Map.of(JobKind.PLAN, queue);
  }

  static PurgeProcessor processor(Map<String, String> env) {
    Environment environment = new Environment(env);
    return new BackgroundWork(environment.database())
        .planningProcessor(
            environment.storage().io(),
            queue(env),
            environment.intValue(EnvironmentVariable.PLANNING_MAX_RECEIVES));
  }

  private static PurgeQueue queue(Map<String, String> env) {
    Environment environment = new Environment(env);
    return new SqsPurgeQueue(
        SqsPurgeQueue.awsClient(environment.region()),
        environment.required(EnvironmentVariable.PLANNING_QUEUE_URL));
  }
}
