package dev.puddle.functions;

import dev.puddle.contract.FunctionGroup;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.DatabaseCredentials;
import dev.puddle.core.metastore.IamAuthCredentials;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.SecretsManagerCredentials;
import dev.puddle.core.storage.Storage;
import dev.puddle.core.vending.CredentialVendor;
import dev.puddle.core.vending.StsCredentialVendor;
import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClientBuilder;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.StsClientBuilder;

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
      case "secret" ->
          new SecretsManagerCredentials(required("PUDDLE_DB_SECRET_ARN"), secretsManager());
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

  /**
   * {@code PUDDLE_ROOT_CREDENTIAL_SECRET_ARN}: the secret holding the realm's root credential,
   * which the migration function gives root; null leaves root's credential alone.
   */
  String rootCredentialSecretArn() {
    String value = env.get("PUDDLE_ROOT_CREDENTIAL_SECRET_ARN");
    return value == null || value.isBlank() ? null : value.trim();
  }

  /**
   * Builds Secrets Manager clients of the function's region, on the url-connection client; at
   * {@code PUDDLE_SECRETS_MANAGER_ENDPOINT} if set.
   */
  Supplier<SecretsManagerClient> secretsManager() {
    Region region = Region.of(region());
    String endpoint = env.get("PUDDLE_SECRETS_MANAGER_ENDPOINT");
    return () -> {
      SecretsManagerClientBuilder builder =
          SecretsManagerClient.builder()
              .region(region)
              .httpClient(UrlConnectionHttpClient.create())
              .credentialsProvider(DefaultCredentialsProvider.builder().build());
      if (endpoint != null && !endpoint.isBlank()) {
        builder.endpointOverride(URI.create(endpoint.trim()));
      }
      return builder.build();
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

  /**
   * Credential vending with STS {@code AssumeRole}: on the role a warehouse names in {@value
   * StsCredentialVendor#ROLE_PROPERTY}, else {@code PUDDLE_VENDING_ROLE_ARN}; sessions of {@code
   * PUDDLE_VENDING_SESSION_SECONDS}; STS at {@code PUDDLE_VENDING_STS_ENDPOINT} if set, called
   * with the function's credentials from {@code functionCredentials} (asked again after {@link
   * CredentialVendor#forget()}).
   */
  CredentialVendor credentialVendor(Supplier<AwsCredentialsProvider> functionCredentials) {
    String role = env.get("PUDDLE_VENDING_ROLE_ARN");
    int seconds =
        intValue(
            "PUDDLE_VENDING_SESSION_SECONDS",
            (int) StsCredentialVendor.DEFAULT_SESSION_DURATION.toSeconds());
    // STS's bounds for AssumeRole; the role's maximum session duration may be lower
    if (seconds < 900 || seconds > 43_200) {
      throw new IllegalStateException(
          "PUDDLE_VENDING_SESSION_SECONDS must be between 900 and 43200: " + seconds);
    }
    String endpoint = env.get("PUDDLE_VENDING_STS_ENDPOINT");
    Region region = Region.of(region());
    return new StsCredentialVendor(
        () -> {
          StsClientBuilder builder =
              StsClient.builder()
                  .region(region)
                  .httpClient(UrlConnectionHttpClient.create())
                  .credentialsProvider(functionCredentials.get());
          if (endpoint != null && !endpoint.isBlank()) {
            builder.endpointOverride(URI.create(endpoint.trim()));
          }
          return builder.build();
        },
        role == null || role.isBlank() ? null : role.trim(),
        Duration.ofSeconds(seconds),
        region());
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
    return intValue("PUDDLE_GZIP_MIN_BYTES", ResponseEncoding.DEFAULT_MIN_BYTES);
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
