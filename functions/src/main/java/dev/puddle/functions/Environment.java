package dev.puddle.functions;

import dev.puddle.core.api.FunctionGroup;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.DatabaseCredentials;
import dev.puddle.core.metastore.IamAuthCredentials;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.SecretsManagerCredentials;
import dev.puddle.core.storage.Storage;
import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * Reads the settings of an execution environment from its environment variables, once. Every
 * variable is documented in the README's configuration table; a missing or malformed one stops the
 * function at init, with its name in the message, rather than failing requests later.
 */
final class Environment {
  private final Map<String, String> env;

  Environment(Map<String, String> env) {
    this.env = env;
  }

  /** {@code PUDDLE_FUNCTION_GROUP}: which routes this function serves. */
  FunctionGroup group() {
    String value = required("PUDDLE_FUNCTION_GROUP");
    try {
      return FunctionGroup.valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "PUDDLE_FUNCTION_GROUP must be one of read, write, token, admin, purge, migrate: "
              + value);
    }
  }

  String realm() {
    return get("PUDDLE_REALM", "default");
  }

  String defaultWarehouse() {
    return get("PUDDLE_DEFAULT_WAREHOUSE", "default");
  }

  /**
   * {@code PUDDLE_DEFAULT_WAREHOUSE_LOCATION}: where the migration function creates the default
   * warehouse if it does not exist; null leaves warehouses alone.
   */
  String defaultWarehouseLocation() {
    String value = env.get("PUDDLE_DEFAULT_WAREHOUSE_LOCATION");
    return value == null || value.isBlank() ? null : value.trim();
  }

  String region() {
    return get("AWS_REGION", "us-east-1");
  }

  /** How metastore connections are made: {@code PUDDLE_DB_MODE}. */
  Database.ConnectionFactory connections(DatabaseCredentials credentials) {
    String mode = get("PUDDLE_DB_MODE", "jdbc");
    return switch (mode) {
      case "jdbc" -> PostgresConnections.factory(required("PUDDLE_DB_URL"), credentials);
      case "data-api" ->
          DataApiEnvironment.connections(env, DefaultCredentialsProvider.builder().build());
      default ->
          throw new IllegalStateException("PUDDLE_DB_MODE must be jdbc or data-api, not " + mode);
    };
  }

  /** The metastore of a function that needs no SnapStart handle on its login or connections. */
  Database database() {
    return new Database(connections(credentials()), maxConnections());
  }

  /** Connections kept per execution environment: one, as Lambda serves one request at a time. */
  int maxConnections() {
    return intValue("PUDDLE_DB_MAX_CONNECTIONS", 1);
  }

  /** Where the database login comes from: {@code PUDDLE_DB_AUTH}. */
  DatabaseCredentials credentials() {
    String auth = get("PUDDLE_DB_AUTH", "password");
    return switch (auth) {
      case "password" ->
          DatabaseCredentials.fixed(env.get("PUDDLE_DB_USER"), env.get("PUDDLE_DB_PASSWORD"));
      case "secret" -> {
        String secret = required("PUDDLE_DB_SECRET_ARN");
        Region region = Region.of(region());
        yield new SecretsManagerCredentials(
            secret,
            () ->
                SecretsManagerClient.builder()
                    .region(region)
                    .httpClient(UrlConnectionHttpClient.create())
                    .credentialsProvider(DefaultCredentialsProvider.builder().build())
                    .build());
      }
      case "iam" -> {
        URI uri = URI.create(required("PUDDLE_DB_URL").substring("jdbc:".length()));
        yield new IamAuthCredentials(
            uri.getHost(),
            uri.getPort() < 0 ? 5432 : uri.getPort(),
            required("PUDDLE_DB_USER"),
            region(),
            () -> DefaultCredentialsProvider.builder().build());
      }
      default ->
          throw new IllegalStateException(
              "PUDDLE_DB_AUTH must be password, secret or iam, not " + auth);
    };
  }

  Storage storage() {
    String endpoint = env.get("PUDDLE_S3_ENDPOINT");
    if (endpoint == null || endpoint.isBlank()) {
      return Storage.aws(region());
    }
    return Storage.s3Compatible(
        endpoint,
        region(),
        required("PUDDLE_S3_ACCESS_KEY_ID"),
        required("PUDDLE_S3_SECRET_ACCESS_KEY"));
  }

  /** How long API Gateway waits for the function: the cap of every request's deadline. */
  Duration requestTimeout() {
    return Duration.ofMillis(intValue("PUDDLE_REQUEST_TIMEOUT_MS", 30_000));
  }

  /** Time kept back from the deadline to roll back and answer. */
  Duration deadlineMargin() {
    return Duration.ofMillis(intValue("PUDDLE_DEADLINE_MARGIN_MS", 2_000));
  }

  /** {@code PUDDLE_IDEMPOTENCY_KEY_LIFETIME}: ISO-8601, e.g. PT30M; {@code off} disables keys. */
  Duration idempotencyKeyLifetime() {
    String value = get("PUDDLE_IDEMPOTENCY_KEY_LIFETIME", "PT30M");
    if (value.equalsIgnoreCase("off")) {
      return null;
    }
    try {
      return Duration.parse(value);
    } catch (DateTimeParseException e) {
      throw new IllegalStateException(
          "PUDDLE_IDEMPOTENCY_KEY_LIFETIME must be an ISO-8601 duration such as PT30M: " + value);
    }
  }

  /** Responses at least this large are gzipped for clients that accept it. */
  int gzipMinBytes() {
    return intValue("PUDDLE_GZIP_MIN_BYTES", 1024);
  }

  String metricsNamespace() {
    return get("PUDDLE_METRICS_NAMESPACE", "Puddle");
  }

  private String get(String name, String fallback) {
    String value = env.get(name);
    return value == null || value.isBlank() ? fallback : value.trim();
  }

  private int intValue(String name, int fallback) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalStateException(name + " must be a number: " + value);
    }
  }

  String required(String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("Missing environment variable " + name);
    }
    return value;
  }
}
