package dev.puddle.core.vending;

import dev.puddle.core.access.AccessLevel;
import dev.puddle.core.metastore.Locations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.TableProperties;

/**
 * What vended credentials reach: a table's locations (its own, then its data and metadata paths
 * where they lie outside it) and the access allowed there.
 */
public record CredentialScope(AccessLevel access, List<String> locations) {
  public CredentialScope {
    Objects.requireNonNull(access, "access");
    locations = List.copyOf(locations);
  }

  /** The scope of a table at {@code location} with {@code properties}: its {@link #locations}. */
  public static CredentialScope forTable(
      AccessLevel access, String location, Map<String, String> properties) {
    return new CredentialScope(access, tableLocations(location, properties));
  }

  /**
   * Where a table at {@code location} with {@code properties} keeps its files, its own location
   * first: engines write data files under {@code write.data.path} and metadata files under {@code
   * write.metadata.path} when set, so those are reachable too (by vended credentials and by signed
   * requests alike).
   */
  public static List<String> tableLocations(String location, Map<String, String> properties) {
    List<String> locations = new ArrayList<>();
    locations.add(Locations.normalize(location));
    for (String key :
        List.of(TableProperties.WRITE_DATA_LOCATION, TableProperties.WRITE_METADATA_LOCATION)) {
      String path = properties.get(key);
      if (path != null
          && !path.isBlank()
          && locations.stream().noneMatch(base -> Locations.isWithin(path, base))) {
        locations.add(Locations.normalize(path));
      }
    }
    return locations;
  }

  /** The table's own location, the prefix its credentials are handed out for. */
  public String location() {
    return locations.get(0);
  }
}
