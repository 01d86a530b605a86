package dev.puddle.contract;

import java.util.Map;
import java.util.Optional;

/**
 * Every environment variable the functions read: its name, its default (if it has one) and what it
 * sets. The functions read their settings by these names, the CDK app sets them by these names, and
 * the configuration table of the docs is printed from this list, so each name is spelled once.
 */
public enum EnvironmentVariable {
  FUNCTION_GROUP(
      "PUDDLE_FUNCTION_GROUP",
      null,
      "Which routes a catalog function serves (read, write, token or admin); migrate for the"
          + " migration function."),
  REALM("PUDDLE_REALM", "default", "The realm the catalog serves."),
  DEFAULT_WAREHOUSE(
      "PUDDLE_DEFAULT_WAREHOUSE", "default", "The warehouse used when a client names none."),
  DEFAULT_WAREHOUSE_LOCATION(
      "PUDDLE_DEFAULT_WAREHOUSE_LOCATION",
      null,
      "Migration function: creates the realm and its default warehouse at this location (e.g."
          + " s3://bucket) unless they exist."),
  ROOT_CREDENTIAL_SECRET_ARN(
      "PUDDLE_ROOT_CREDENTIAL_SECRET_ARN",
      null,
      "Migration function: the Secrets Manager secret holding root's credential; without it,"
          + " root gets a generated secret that is never shown."),
  REGION(
      "AWS_REGION",
      "us-east-1",
      "Set by Lambda: the region of the buckets, Secrets Manager, STS and the database."),
  METRICS_NAMESPACE(
      "PUDDLE_METRICS_NAMESPACE", "Puddle", "The CloudWatch namespace of the request metrics."),

  DB_MODE(
      "PUDDLE_DB_MODE",
      "jdbc",
      "How the metastore is reached: jdbc (PostgreSQL protocol) or data-api (RDS Data API)."),
  DB_URL("PUDDLE_DB_URL", null, "The metastore's JDBC URL (jdbc mode)."),
  DB_AUTH(
      "PUDDLE_DB_AUTH",
      "password",
      "Where the database login comes from (jdbc mode): password, secret (Secrets Manager) or"
          + " iam (IAM authentication tokens)."),
  DB_USER("PUDDLE_DB_USER", null, "The database user (password and iam logins)."),
  DB_PASSWORD("PUDDLE_DB_PASSWORD", null, "The database password (password login)."),
  DB_SECRET_ARN(
      "PUDDLE_DB_SECRET_ARN",
      null,
      "The Secrets Manager secret with the database login (secret login, and data-api mode)."),
  DB_MAX_CONNECTIONS(
      "PUDDLE_DB_MAX_CONNECTIONS", "1", "Metastore connections per execution environment."),
  DB_CLUSTER_ARN("PUDDLE_DB_CLUSTER_ARN", null, "The Aurora cluster (data-api mode)."),
  DB_NAME("PUDDLE_DB_NAME", null, "The database in the cluster (data-api mode)."),
  DB_DATA_API_ENDPOINT(
      "PUDDLE_DB_DATA_API_ENDPOINT",
      null,
      "Another RDS Data API endpoint (data-api mode) than the regional one."),
  SECRETS_MANAGER_ENDPOINT(
      "PUDDLE_SECRETS_MANAGER_ENDPOINT",
      null,
      "Another Secrets Manager endpoint than the regional one, e.g. a VPC interface endpoint."),

  S3_ENDPOINT(
      "PUDDLE_S3_ENDPOINT",
      null,
      "An S3-compatible endpoint instead of Amazon S3 (then also its two keys)."),
  S3_ACCESS_KEY_ID("PUDDLE_S3_ACCESS_KEY_ID", null, "The access key of PUDDLE_S3_ENDPOINT."),
  S3_SECRET_ACCESS_KEY(
      "PUDDLE_S3_SECRET_ACCESS_KEY", null, "The secret key of PUDDLE_S3_ENDPOINT."),

  VENDING_ROLE_ARN(
      "PUDDLE_VENDING_ROLE_ARN",
      null,
      "The IAM role whose sessions are vended for warehouses that name none; without either,"
          + " no credentials are vended."),
  VENDING_SESSION_SECONDS(
      "PUDDLE_VENDING_SESSION_SECONDS",
      "3600",
      "How long vended credentials last, 900 to 43200 and at most the role's maximum."),
  VENDING_STS_ENDPOINT(
      "PUDDLE_VENDING_STS_ENDPOINT", null, "Another STS endpoint than the regional one."),

  REQUEST_TIMEOUT_MS(
      "PUDDLE_REQUEST_TIMEOUT_MS",
      "30000",
      "API Gateway's integration timeout: no request's deadline is later."),
  DEADLINE_MARGIN_MS(
      "PUDDLE_DEADLINE_MARGIN_MS",
      "2000",
      "Time kept back from the deadline to roll back, record and answer."),
  IDEMPOTENCY_KEY_LIFETIME(
      "PUDDLE_IDEMPOTENCY_KEY_LIFETIME",
      "PT30M",
      "How long an Idempotency-Key is honoured (ISO-8601); off ignores keys."),
  GZIP_MIN_BYTES(
      "PUDDLE_GZIP_MIN_BYTES",
      "8192",
      "Responses at least this large are gzipped for clients that accept it."),

  AUTH_ISSUERS(
      "PUDDLE_AUTH_ISSUERS",
      null,
      "External token issuers whose bearer JWTs are accepted: a JSON array of issuer, jwks-uri,"
          + " audiences, principal-claim and realm or realm-claim."),
  AUTH_CLOCK_SKEW(
      "PUDDLE_AUTH_CLOCK_SKEW",
      "PT60S",
      "How far an issuer's clock may be off when exp, nbf and iat are checked."),
  TOKEN_ISSUER(
      "PUDDLE_TOKEN_ISSUER",
      "puddle",
      "The iss of Puddle's own tokens: the token function issues them, every function accepts"
          + " them."),
  TOKEN_AUDIENCE("PUDDLE_TOKEN_AUDIENCE", "puddle", "The aud of Puddle's own tokens."),
  TOKEN_LIFETIME(
      "PUDDLE_TOKEN_LIFETIME", "PT1H", "How long a token of Puddle's issuer is valid (ISO-8601)."),
  TOKEN_SIGNING_SECRET_ARN(
      "PUDDLE_TOKEN_SIGNING_SECRET_ARN",
      null,
      "Token function: the Secrets Manager secret holding Puddle's private signing keys, a JWK"
          + " set."),

  PURGE_QUEUE_URL(
      "PUDDLE_PURGE_QUEUE_URL",
      null,
      "The SQS purge queue; without it the catalog still records purge jobs for the sweep."),
  PURGE_MAX_RECEIVES(
      "PUDDLE_PURGE_MAX_RECEIVES",
      "5",
      "Purge function: the queue's maxReceiveCount; a job failing on this receive is failed."),
  PURGE_SWEEP_GRACE_SECONDS(
      "PUDDLE_PURGE_SWEEP_GRACE_SECONDS",
      "300",
      "Sweep function: a job never sent for this long is sent."),
  PURGE_SWEEP_STALE_MINUTES(
      "PUDDLE_PURGE_SWEEP_STALE_MINUTES",
      "60",
      "Sweep function: a queued purge or maintenance job not moving for this long is sent again."),
  PLANNING_SWEEP_STALE_MINUTES(
      "PUDDLE_PLANNING_SWEEP_STALE_MINUTES",
      "8",
      "Sweep function: a submitted scan plan's job not moving for this long is sent again; well"
          + " within a plan's hour of life."),
  PLANNING_QUEUE_URL(
      "PUDDLE_PLANNING_QUEUE_URL",
      null,
      "The SQS planning queue; without it the catalog still records submitted scan plans for the"
          + " sweep."),
  PLANNING_MAX_RECEIVES(
      "PUDDLE_PLANNING_MAX_RECEIVES",
      "3",
      "Planning function: the queue's maxReceiveCount; a plan failing on this receive is failed."),
  EVENT_RELAY_QUEUE_URL(
      "PUDDLE_EVENT_RELAY_QUEUE_URL",
      null,
      "The SQS queue that nudges the event relay; without it the event sweep nudges."),
  EVENT_BUS_NAME(
      "PUDDLE_EVENT_BUS_NAME", null, "Event relay function: the EventBridge bus it publishes to."),
  EVENT_SWEEP_GRACE_SECONDS(
      "PUDDLE_EVENT_SWEEP_GRACE_SECONDS",
      "60",
      "Event sweep: an event unpublished for this long has the relay nudged."),
  MAINTENANCE_INTERVAL_HOURS(
      "PUDDLE_MAINTENANCE_INTERVAL_HOURS",
      "24",
      "Sweep function: a table whose last maintenance run started this long ago gets another."),
  EXPORT_LOCATION(
      "PUDDLE_EXPORT_LOCATION",
      null,
      "Export and rebuild functions: where catalog exports are written and read (e.g."
          + " s3://bucket/_puddle/export).");

  private final String key;
  private final String defaultValue;
  private final String description;

  EnvironmentVariable(String key, String defaultValue, String description) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.description = description;
  }

  /** The variable's name, e.g. {@code PUDDLE_DB_URL}. */
  public String key() {
    return key;
  }

  /** The value that applies when the variable is unset or blank, if there is one. */
  public Optional<String> defaultValue() {
    return Optional.ofNullable(defaultValue);
  }

  /** What the variable sets, in one line. */
  public String description() {
    return description;
  }

  /** The variable's value in {@code environment}, trimmed; else its default, if any. */
  public Optional<String> in(Map<String, String> environment) {
    String value = environment.get(key);
    return value == null || value.isBlank() ? defaultValue() : Optional.of(value.trim());
  }
}
