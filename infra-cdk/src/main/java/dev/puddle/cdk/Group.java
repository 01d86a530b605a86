package dev.puddle.cdk;

import dev.puddle.contract.FunctionGroup;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The functions the stack deploys, all from the one artifact: the five that serve the HTTP API (one
 * per {@link FunctionGroup} of the route table, SnapStart behind an alias), the purge queue's
 * consumer and the sweep (each the only function of its handler, so told no group), and the
 * migration function.
 */
public enum Group {
  READ(FunctionGroup.READ, "dev.puddle.functions.CatalogHandler", 1024, Duration.ofSeconds(30)),
  WRITE(FunctionGroup.WRITE, "dev.puddle.functions.CatalogHandler", 1536, Duration.ofSeconds(30)),
  /**
   * Remote signing: one call per S3 request of an engine, so its own function, scaling apart, and
   * the only one whose role reads and writes table data (what it signs, it signs with that role).
   */
  SIGN(FunctionGroup.SIGN, "dev.puddle.functions.CatalogHandler", 1024, Duration.ofSeconds(30)),
  TOKEN(FunctionGroup.TOKEN, "dev.puddle.functions.CatalogHandler", 512, Duration.ofSeconds(30)),
  ADMIN(FunctionGroup.ADMIN, "dev.puddle.functions.CatalogHandler", 512, Duration.ofSeconds(30)),
  /** Long enough for many DeleteObjects pages; the handler stops starting work at 4/5 of it. */
  PURGE(null, "dev.puddle.functions.PurgeHandler", 1024, Duration.ofMinutes(5)),
  /**
   * The planning function, fed by the planning queue: plans the scans too large to plan within a
   * request. A plan is one step, so its timeout bounds the largest plan; the memory holds its
   * tasks.
   */
  PLAN(null, "dev.puddle.functions.PlanningHandler", 2048, Duration.ofMinutes(5)),
  SWEEP(null, "dev.puddle.functions.PurgeSweepHandler", 512, Duration.ofMinutes(1)),
  /** The change-event relay, fed by its queue of nudges. */
  RELAY(null, "dev.puddle.functions.EventRelayHandler", 512, Duration.ofMinutes(1)),
  /** The event sweep: lost nudges and retention, on the purge sweep's schedule. */
  EVENT_SWEEP(null, "dev.puddle.functions.EventSweepHandler", 512, Duration.ofMinutes(1)),
  /** The periodic catalog export to the warehouse bucket, on its own schedule. */
  EXPORT(null, "dev.puddle.functions.CatalogExportHandler", 512, Duration.ofMinutes(5)),
  /**
   * The rebuild from the warehouse, invoked by an operator only
   * (docs/operations.md#rebuild-from-the-warehouse).
   */
  REBUILD(null, "dev.puddle.functions.RebuildHandler", 1024, Duration.ofMinutes(15)),
  /** A paused lean cluster takes up to a few seconds to resume; migrations may take longer. */
  MIGRATE(
      FunctionGroup.MIGRATE, "dev.puddle.functions.MigrationHandler", 512, Duration.ofMinutes(5));

  private final FunctionGroup functionGroup;
  private final String handler;
  private final int defaultMemory;
  private final Duration timeout;

  Group(FunctionGroup functionGroup, String handler, int defaultMemory, Duration timeout) {
    this.functionGroup = functionGroup;
    this.handler = handler;
    this.defaultMemory = defaultMemory;
    this.timeout = timeout;
  }

  /**
   * The value of {@link dev.puddle.contract.EnvironmentVariable#FUNCTION_GROUP}: which routes a
   * catalog function serves, or that the migration function migrates. Empty for the purge function
   * and the sweep, whose handlers serve nothing else.
   */
  public Optional<FunctionGroup> functionGroup() {
    return Optional.ofNullable(functionGroup);
  }

  public String handler() {
    return handler;
  }

  public int defaultMemory() {
    return defaultMemory;
  }

  public Duration timeout() {
    return timeout;
  }

  /** Whether this function serves HTTP API routes: SnapStart, an alias, the keep-alive. */
  public boolean servesApi() {
    return this == READ || this == WRITE || this == SIGN || this == TOKEN || this == ADMIN;
  }

  /** The name in context parameters and construct ids, e.g. {@code read}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The function serving a route table group. */
  public static Group serving(FunctionGroup group) {
    return switch (group) {
      case READ -> READ;
      case WRITE -> WRITE;
      case SIGN -> SIGN;
      case TOKEN -> TOKEN;
      case ADMIN -> ADMIN;
      case MIGRATE -> MIGRATE;
    };
  }
}
