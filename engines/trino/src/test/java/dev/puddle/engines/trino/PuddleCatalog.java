package dev.puddle.engines.trino;

import dev.puddle.engines.twin.PuddleTwin;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Iceberg connector's catalog properties that point Trino at Puddle: the REST catalog with
 * OAuth2 client credentials against Puddle's token endpoint, and S3 on the twin, either with the
 * twin's keys or with credentials Puddle vends per table.
 */
public final class PuddleCatalog {
  private PuddleCatalog() {}

  /** Trino signed in with {@code credential}, reading and writing S3 with the twin's own keys. */
  public static Map<String, String> withStorageKeys(
      PuddleTwin twin, String warehouse, String credential) {
    Map<String, String> properties = new LinkedHashMap<>(common(twin, warehouse, credential));
    properties.put("s3.aws-access-key", twin.s3AccessKeyId());
    properties.put("s3.aws-secret-key", twin.s3SecretAccessKey());
    return properties;
  }

  /** Trino with no S3 keys of its own: it uses the credentials Puddle vends with each table. */
  public static Map<String, String> withVendedCredentials(
      PuddleTwin twin, String warehouse, String credential) {
    Map<String, String> properties = new LinkedHashMap<>(common(twin, warehouse, credential));
    properties.put("iceberg.rest-catalog.vended-credentials-enabled", "true");
    return properties;
  }

  private static Map<String, String> common(PuddleTwin twin, String warehouse, String credential) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("iceberg.catalog.type", "rest");
    properties.put("iceberg.rest-catalog.uri", twin.uri());
    properties.put("iceberg.rest-catalog.warehouse", warehouse);
    properties.put("iceberg.rest-catalog.security", "OAUTH2");
    properties.put("iceberg.rest-catalog.oauth2.credential", credential);
    properties.put("iceberg.rest-catalog.oauth2.server-uri", twin.tokenEndpoint());
    properties.put("iceberg.rest-catalog.oauth2.scope", "PRINCIPAL_ROLE:ALL");
    properties.put("fs.native-s3.enabled", "true");
    properties.put("s3.endpoint", twin.s3Endpoint());
    properties.put("s3.path-style-access", "true");
    properties.put("s3.region", twin.region());
    return properties;
  }
}
