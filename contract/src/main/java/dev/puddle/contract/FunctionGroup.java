package dev.puddle.contract;

/**
 * The Lambda functions Puddle deploys. Routes are grouped onto functions by the privilege they
 * need, so each function's IAM role grants only what its routes use.
 */
public enum FunctionGroup {
  /** Config, listings, loads and existence checks: never writes. */
  READ,
  /** Creates, commits, drops, renames, registrations, transactions and metrics reports. */
  WRITE,
  /** Puddle's own token issuer. */
  TOKEN,
  /** The management API. */
  ADMIN,
  /** Schema migrations, run at deploy time. */
  MIGRATE
}
