package dev.puddle.contract;

/**
 * The groups of {@link Route}s Puddle deploys as one function each, and the migration function: the
 * value of {@link EnvironmentVariable#FUNCTION_GROUP}. Routes are grouped onto functions by the
 * privilege they need, so each function's IAM role grants only what its routes use. The purge
 * function and the sweep serve no route and are told no group.
 */
public enum FunctionGroup {
  /** Config, listings, loads and existence checks: never writes. */
  READ,
  /** Creates, commits, drops, renames, registrations, transactions and metrics reports. */
  WRITE,
  /** Puddle's own token issuer. */
  TOKEN,
  /**
   * Remote signing, the hottest route (one call per S3 request of an engine): its own function, so
   * that its role alone may touch the warehouse's objects on engines' behalf, and it scales apart.
   */
  SIGN,
  /** The management API. */
  ADMIN,
  /** Schema migrations, run at deploy time. */
  MIGRATE
}
