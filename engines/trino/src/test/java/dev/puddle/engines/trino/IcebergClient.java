package dev.puddle.engines.trino;

import dev.puddle.engines.twin.PuddleTwin;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.rest.RESTCatalog;

/** Iceberg's Java REST client (the version Trino brings) signed in at the twin. */
public final class IcebergClient {
  private IcebergClient() {}

  /** A catalog signed in with {@code credential}, using the twin's S3 keys for files. */
  public static RESTCatalog catalog(PuddleTwin twin, String warehouse, String credential) {
    Map<String, String> properties = new HashMap<>(twin.clientProperties());
    properties.put("warehouse", warehouse);
    properties.put("credential", credential);
    properties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("puddle-" + warehouse, properties);
    return catalog;
  }
}
