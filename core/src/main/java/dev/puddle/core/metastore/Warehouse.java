package dev.puddle.core.metastore;

import java.util.Map;

/**
 * A warehouse of a realm: a catalog in Iceberg's terms, addressed by the REST {@code prefix}, with
 * a base location under which its tables are created.
 */
public record Warehouse(
    long id, String realm, String name, String location, Map<String, String> properties) {
  public Warehouse {
    location = Locations.normalize(location);
    properties = Map.copyOf(properties);
  }
}
