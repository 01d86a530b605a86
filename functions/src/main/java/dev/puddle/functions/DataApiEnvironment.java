package dev.puddle.functions;

import dev.puddle.core.metastore.dataapi.DataApiConnections;
import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * Metastore connections over the RDS Data API ({@code PUDDLE_DB_MODE=data-api}), from the
 * environment variables documented in the README: which cluster, secret and database, and
 * optionally another endpoint.
 */
final class DataApiEnvironment {
  private DataApiEnvironment() {}

  /** Connections calling the Data API with {@code credentials}. */
  static DataApiConnections connections(
      Map<String, String> env, AwsCredentialsProvider credentials) {
    String clusterArn = required(env, "PUDDLE_DB_CLUSTER_ARN");
    String endpoint = env.get("PUDDLE_DB_DATA_API_ENDPOINT");
    return new DataApiConnections(
        DataApiConnections.client(
            region(clusterArn, env),
            endpoint == null || endpoint.isBlank() ? null : URI.create(endpoint.trim()),
            credentials),
        new DataApiConnections.Target(
            clusterArn, required(env, "PUDDLE_DB_SECRET_ARN"), env.get("PUDDLE_DB_NAME")),
        DataApiConnections.Resume.DEFAULT);
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
    return value.trim();
  }
}
