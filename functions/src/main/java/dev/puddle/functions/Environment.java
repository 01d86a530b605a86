package dev.puddle.functions;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.storage.Storage;
import java.util.Map;

/**
 * Wires the catalog from environment variables, once per execution environment. Every setting is
 * documented in the README.
 */
final class Environment {
  private Environment() {}

  static CatalogApi catalogApi(Map<String, String> env) {
    Database database =
        new Database(
            MetastoreConnections.fromEnvironment(env),
            Integer.parseInt(env.getOrDefault("PUDDLE_DB_MAX_CONNECTIONS", "1")));
    return new CatalogApi(
        new CatalogApi.Settings(
            env.getOrDefault("PUDDLE_REALM", "default"),
            env.getOrDefault("PUDDLE_DEFAULT_WAREHOUSE", "default")),
        database,
        storage(env));
  }

  static Storage storage(Map<String, String> env) {
    String region = env.getOrDefault("AWS_REGION", "us-east-1");
    String endpoint = env.get("PUDDLE_S3_ENDPOINT");
    if (endpoint == null || endpoint.isBlank()) {
      return Storage.aws(region);
    }
    return Storage.s3Compatible(
        endpoint,
        region,
        required(env, "PUDDLE_S3_ACCESS_KEY_ID"),
        required(env, "PUDDLE_S3_SECRET_ACCESS_KEY"));
  }

  private static String required(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("Missing environment variable " + name);
    }
    return value;
  }
}
