package dev.puddle.cdk;

/**
 * The names of the functions' environment variables (the README's configuration table, read by
 * the functions' Environment, AuthEnvironment, DataApiEnvironment and PurgeEnvironment), in one
 * place.
 */
final class EnvVars {
  static final String FUNCTION_GROUP = "PUDDLE_FUNCTION_GROUP";
  static final String REALM = "PUDDLE_REALM";
  static final String DEFAULT_WAREHOUSE = "PUDDLE_DEFAULT_WAREHOUSE";
  static final String METRICS_NAMESPACE = "PUDDLE_METRICS_NAMESPACE";

  static final String DB_MODE = "PUDDLE_DB_MODE";
  static final String DB_URL = "PUDDLE_DB_URL";
  static final String DB_AUTH = "PUDDLE_DB_AUTH";
  static final String DB_USER = "PUDDLE_DB_USER";
  static final String DB_CLUSTER_ARN = "PUDDLE_DB_CLUSTER_ARN";
  static final String DB_SECRET_ARN = "PUDDLE_DB_SECRET_ARN";
  static final String DB_NAME = "PUDDLE_DB_NAME";

  static final String PURGE_QUEUE_URL = "PUDDLE_PURGE_QUEUE_URL";
  static final String PURGE_MAX_RECEIVES = "PUDDLE_PURGE_MAX_RECEIVES";
  static final String PURGE_SWEEP_STALE_MINUTES = "PUDDLE_PURGE_SWEEP_STALE_MINUTES";

  /** The migration function: where the default warehouse's tables go. */
  static final String WAREHOUSE_LOCATION = "PUDDLE_DEFAULT_WAREHOUSE_LOCATION";

  /** The migration function: the secret holding the client id and secret root gets. */
  static final String ROOT_CREDENTIAL_SECRET_ARN = "PUDDLE_ROOT_CREDENTIAL_SECRET_ARN";

  /** The token function's private signing keys, a Secrets Manager secret. */
  static final String TOKEN_SIGNING_SECRET_ARN = "PUDDLE_TOKEN_SIGNING_SECRET_ARN";

  /**
   * The issuer of Puddle's own tokens, the API's URL: the token function issues tokens with it,
   * and every catalog function accepts tokens of it.
   */
  static final String TOKEN_ISSUER = "PUDDLE_TOKEN_ISSUER";

  /** External identity providers whose tokens the catalog functions accept, a JSON array. */
  static final String AUTH_ISSUERS = "PUDDLE_AUTH_ISSUERS";

  /** The role credential vending assumes for engines. */
  static final String VENDING_ROLE_ARN = "PUDDLE_VENDING_ROLE_ARN";

  private EnvVars() {}
}
