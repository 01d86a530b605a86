package dev.puddle.functions;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.dataapi.DataApiConnections;
import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * How an execution environment reaches the metastore, chosen by {@code PUDDLE_DB_MODE}: {@code
 * jdbc} (PostgreSQL directly or through RDS Proxy) or {@code data-api} (the RDS Data API, no VPC).
 * Every setting is documented in the README.
 */
final class MetastoreConnections {
  private MetastoreConnections() {}

  static Database.ConnectionFactory fromEnvironment(Map<String, String> env) {
    return fromEnvironment(env, DefaultCredentialsProvider.builder().build());
  }

  /** As {@link #fromEnvironment(Map)}, calling the Data API with the given credentials. */
  static Database.ConnectionFactory fromEnvironment(
      Map<String, String> env, AwsCredentialsProvider credentials) {
    String mode = env.getOrDefault("PUDDLE_DB_MODE", "jdbc");
    return switch (mode) {
      case "jdbc" ->
          PostgresConnections.factory(
              required(env, "PUDDLE_DB_URL"),
              env.get("PUDDLE_DB_USER"),
              env.get("PUDDLE_DB_PASSWORD"));
      case "data-api" -> dataApi(env, credentials);
      default ->
          throw new IllegalStateException("PUDDLE_DB_MODE must be jdbc or data-api, not " + mode);
    };
  }

  private static DataApiConnections dataApi(
      Map<String, String> env, AwsCredentialsProvider credentials) {
    String clusterArn = required(env, "PUDDLE_DB_CLUSTER_ARN");
    String endpoint = env.get("PUDDLE_DB_DATA_API_ENDPOINT");
    return new DataApiConnections(
        DataApiConnections.client(
            region(clusterArn, env),
            endpoint == null || endpoint.isBlank() ? null : URI.create(endpoint),
            credentials),
        new DataApiConnections.Target(
            clusterArn, required(env, "PUDDLE_DB_SECRET_ARN"), env.get("PUDDLE_DB_NAME")),
        DataApiConnections.Resume.DEFAULT,
        () -> Long.MAX_VALUE);
  }

  /** The cluster's own region (arn:aws:rds:REGION:account:cluster:name), else the function's. */
  private static String region(String clusterArn, Map<String, String> env) {
    String[] parts = clusterArn.split(":");
    if (parts.length > 3 && !parts[3].isBlank()) {
      return parts[3];
    }
    return env.getOrDefault("AWS_REGION", "us-east-1");
  }

  private static String required(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("Missing environment variable " + name);
    }
    return value;
  }
}
