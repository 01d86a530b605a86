package dev.puddle.functions;

import dev.puddle.contract.EnvironmentVariable;
import dev.puddle.core.metastore.dataapi.DataApiConnections;
import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * Metastore connections over the RDS Data API ({@link EnvironmentVariable#DB_MODE} {@code
 * data-api}), from the environment variables: which cluster, secret and database, and optionally
 * another endpoint.
 */
final class DataApiEnvironment {
  private DataApiEnvironment() {}

  /** Connections calling the Data API with {@code credentials}. */
  static DataApiConnections connections(
      Map<String, String> env, AwsCredentialsProvider credentials) {
    String clusterArn = required(env, EnvironmentVariable.DB_CLUSTER_ARN);
    String endpoint = EnvironmentVariable.DB_DATA_API_ENDPOINT.in(env).orElse(null);
    return new DataApiConnections(
        DataApiConnections.client(
            region(clusterArn, env), endpoint == null ? null : URI.create(endpoint), credentials),
        new DataApiConnections.Target(
            clusterArn,
            required(env, EnvironmentVariable.DB_SECRET_ARN),
            env.get(EnvironmentVariable.DB_NAME.key())),
        DataApiConnections.Resume.DEFAULT);
  }

  /** The cluster's own region (arn:aws:rds:REGION:account:cluster:name), else the function's. */
  private static String region(String clusterArn, Map<String, String> env) {
    String[] parts = clusterArn.split(":");
    if (parts.length > 3 && !parts[3].isBlank()) {
      return parts[3];
    }
    return EnvironmentVariable.REGION.in(env).orElseThrow();
  }

  private static String required(Map<String, String> env, EnvironmentVariable variable) {
    return variable
        .in(env)
        .orElseThrow(
            () -> new IllegalStateException("Missing environment variable " + variable.key()));
  }
}
