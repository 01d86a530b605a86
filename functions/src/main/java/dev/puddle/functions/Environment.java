package dev.puddle.functions;

import dev.puddle.contract.EnvironmentVariable;
import dev.puddle.contract.FunctionGroup;
import dev.puddle.core.aws.IamAuthCredentials;
import dev.puddle.core.aws.SecretsManagerCredentials;
import dev.puddle.core.aws.StsCredentialVendor;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.DatabaseCredentials;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.SchemaVersionCheck;
import dev.puddle.core.signing.RequestSigner;
import dev.puddle.core.signing.S3Addressing;
import dev.puddle.core.storage.Storage;
import dev.puddle.core.vending.CredentialVendor;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClientBuilder;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.StsClientBuilder;

/**
 * Reads the settings of an execution environment from its environment variables, once. Every
 * variable, its default and its meaning is an {@link EnvironmentVariable}; a missing or malformed
 * one stops the function at init, with its name in the message, rather than failing requests later.
 */
final class Environment {
  private final Map<String, String> env;

  Environment(Map<String, String> env) {
    this.env = env;
  }

  /** {@link EnvironmentVariable#FUNCTION_GROUP}: which routes this function serves. */
  FunctionGroup group() {
    String value = required(EnvironmentVariable.FUNCTION_GROUP);
    try {
      return FunctionGroup.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          EnvironmentVariable.FUNCTION_GROUP.key()
              + " must be one of "
              + Arrays.stream(FunctionGroup.values())
                  .map(group -> group.name().toLowerCase(Locale.ROOT))
                  .collect(Collectors.joining(", "))
              + ": "
              + value);
    }
  }

  String realm() {
    return value(EnvironmentVariable.REALM);
  }

  String defaultWarehouse() {
    return value(EnvironmentVariable.DEFAULT_WAREHOUSE);
  }

  /**
   * {@link EnvironmentVariable#DEFAULT_WAREHOUSE_LOCATION}: where the migration function creates
   * the default warehouse if it does not exist; null leaves warehouses alone.
   */
  String defaultWarehouseLocation() {
    return value(EnvironmentVariable.DEFAULT_WAREHOUSE_LOCATION);
  }

  String region() {
    return value(EnvironmentVariable.REGION);
  }

  /** How metastore connections are made: {@link EnvironmentVariable#DB_MODE}. */
  Database.ConnectionFactory connections(DatabaseCredentials credentials) {
    String mode = value(EnvironmentVariable.DB_MODE);
    return switch (mode) {
      case "jdbc" -> PostgresConnections.factory(required(EnvironmentVariable.DB_URL), credentials);
      case "data-api" ->
          DataApiEnvironment.connections(env, DefaultCredentialsProvider.builder().build());
      default ->
          throw new IllegalStateException(
              EnvironmentVariable.DB_MODE.key() + " must be jdbc or data-api, not " + mode);
    };
  }

  /**
   * The metastore of a function that needs no SnapStart handle on its login or connections; it
   * refuses a schema newer than this release knows ({@link SchemaVersionCheck}).
   */
  Database database() {
    return new Database(new SchemaVersionCheck(connections(credentials())), maxConnections());
  }

  /** Connections kept per execution environment: one, as Lambda serves one request at a time. */
  int maxConnections() {
    return intValue(EnvironmentVariable.DB_MAX_CONNECTIONS);
  }

  /** Where the database login comes from: {@link EnvironmentVariable#DB_AUTH}. */
  DatabaseCredentials credentials() {
    String auth = value(EnvironmentVariable.DB_AUTH);
    return switch (auth) {
      case "password" ->
          DatabaseCredentials.fixed(
              env.get(EnvironmentVariable.DB_USER.key()),
              env.get(EnvironmentVariable.DB_PASSWORD.key()));
      case "secret" ->
          new SecretsManagerCredentials(
              required(EnvironmentVariable.DB_SECRET_ARN), secretsManager());
      case "iam" -> {
        URI uri = URI.create(required(EnvironmentVariable.DB_URL).substring("jdbc:".length()));
        yield new IamAuthCredentials(
            uri.getHost(),
            uri.getPort() < 0 ? 5432 : uri.getPort(),
            required(EnvironmentVariable.DB_USER),
            region(),
            () -> DefaultCredentialsProvider.builder().build());
      }
      default ->
          throw new IllegalStateException(
              EnvironmentVariable.DB_AUTH.key() + " must be password, secret or iam, not " + auth);
    };
  }

  /**
   * {@link EnvironmentVariable#ROOT_CREDENTIAL_SECRET_ARN}: the secret holding the realm's root
   * credential, which the migration function gives root; null leaves root's credential alone.
   */
  String rootCredentialSecretArn() {
    return value(EnvironmentVariable.ROOT_CREDENTIAL_SECRET_ARN);
  }

  /**
   * Builds Secrets Manager clients of the function's region, on the url-connection client; at
   * {@link EnvironmentVariable#SECRETS_MANAGER_ENDPOINT} if set.
   */
  Supplier<SecretsManagerClient> secretsManager() {
    Region region = Region.of(region());
    String endpoint = value(EnvironmentVariable.SECRETS_MANAGER_ENDPOINT);
    return () -> {
      SecretsManagerClientBuilder builder =
          SecretsManagerClient.builder()
              .region(region)
              .httpClient(UrlConnectionHttpClient.create())
              .credentialsProvider(DefaultCredentialsProvider.builder().build());
      if (endpoint != null) {
        builder.endpointOverride(URI.create(endpoint));
      }
      return builder.build();
    };
  }

  Storage storage() {
    String endpoint = value(EnvironmentVariable.S3_ENDPOINT);
    if (endpoint == null) {
      return Storage.aws(region());
    }
    return Storage.s3Compatible(
        endpoint,
        region(),
        required(EnvironmentVariable.S3_ACCESS_KEY_ID),
        required(EnvironmentVariable.S3_SECRET_ACCESS_KEY));
  }

  /**
   * Remote signing for the storage {@link #storage} reaches: Amazon S3 under the function's own
   * credentials (on Lambda its role's), or the S3-compatible endpoint, path-style, under its keys.
   */
  RequestSigner requestSigner(Supplier<AwsCredentialsProvider> own) {
    String endpoint = value(EnvironmentVariable.S3_ENDPOINT);
    if (endpoint == null) {
      return new RequestSigner(own, S3Addressing.aws(), Clock.systemUTC());
    }
    // read now, so that a missing key stops the function at init as every other setting does
    String accessKeyId = required(EnvironmentVariable.S3_ACCESS_KEY_ID);
    String secretAccessKey = required(EnvironmentVariable.S3_SECRET_ACCESS_KEY);
    return new RequestSigner(
        () ->
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(accessKeyId, secretAccessKey)),
        S3Addressing.pathStyle(endpoint),
        Clock.systemUTC());
  }

  /**
   * Credential vending with STS {@code AssumeRole}: on the role a warehouse names in {@value
   * StsCredentialVendor#ROLE_PROPERTY}, else {@link EnvironmentVariable#VENDING_ROLE_ARN}; sessions
   * of {@link EnvironmentVariable#VENDING_SESSION_SECONDS}; STS at {@link
   * EnvironmentVariable#VENDING_STS_ENDPOINT} if set, called with the function's credentials from
   * {@code functionCredentials} (asked again after {@link CredentialVendor#forget()}).
   */
  CredentialVendor credentialVendor(Supplier<AwsCredentialsProvider> functionCredentials) {
    String role = value(EnvironmentVariable.VENDING_ROLE_ARN);
    int seconds = intValue(EnvironmentVariable.VENDING_SESSION_SECONDS);
    // STS's bounds for AssumeRole; the role's maximum session duration may be lower
    if (seconds < 900 || seconds > 43_200) {
      throw new IllegalStateException(
          EnvironmentVariable.VENDING_SESSION_SECONDS.key()
              + " must be between 900 and 43200: "
              + seconds);
    }
    String endpoint = value(EnvironmentVariable.VENDING_STS_ENDPOINT);
    Region region = Region.of(region());
    return new StsCredentialVendor(
        () -> {
          StsClientBuilder builder =
              StsClient.builder()
                  .region(region)
                  .httpClient(UrlConnectionHttpClient.create())
                  .credentialsProvider(functionCredentials.get());
          if (endpoint != null) {
            builder.endpointOverride(URI.create(endpoint));
          }
          return builder.build();
        },
        role,
        Duration.ofSeconds(seconds),
        region());
  }

  /** How long API Gateway waits for the function: the cap of every request's deadline. */
  Duration requestTimeout() {
    return Duration.ofMillis(intValue(EnvironmentVariable.REQUEST_TIMEOUT_MS));
  }

  /** Time kept back from the deadline to roll back and answer. */
  Duration deadlineMargin() {
    return Duration.ofMillis(intValue(EnvironmentVariable.DEADLINE_MARGIN_MS));
  }

  /**
   * {@link EnvironmentVariable#IDEMPOTENCY_KEY_LIFETIME}: ISO-8601, e.g. PT30M; {@code off}
   * disables keys.
   */
  Duration idempotencyKeyLifetime() {
    String value = value(EnvironmentVariable.IDEMPOTENCY_KEY_LIFETIME);
    if (value.equalsIgnoreCase("off")) {
      return null;
    }
    try {
      return Duration.parse(value);
    } catch (DateTimeParseException e) {
      throw new IllegalStateException(
          EnvironmentVariable.IDEMPOTENCY_KEY_LIFETIME.key()
              + " must be an ISO-8601 duration such as PT30M: "
              + value);
    }
  }

  /** Responses at least this large are gzipped for clients that accept it. */
  int gzipMinBytes() {
    return intValue(EnvironmentVariable.GZIP_MIN_BYTES);
  }

  String metricsNamespace() {
    return value(EnvironmentVariable.METRICS_NAMESPACE);
  }

  /** The variable's value, trimmed, else its default; null if it has neither. */
  private String value(EnvironmentVariable variable) {
    return variable.in(env).orElse(null);
  }

  int intValue(EnvironmentVariable variable) {
    String value = required(variable);
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(variable.key() + " must be a number: " + value);
    }
  }

  /** The variable's value, trimmed, else its default; stops the function if it has neither. */
  String required(EnvironmentVariable variable) {
    return variable
        .in(env)
        .orElseThrow(
            () -> new IllegalStateException("Missing environment variable " + variable.key()));
  }
}
