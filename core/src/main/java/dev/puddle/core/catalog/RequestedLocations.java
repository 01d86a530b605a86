package dev.puddle.core.catalog;

import dev.puddle.contract.WarehouseLayout;
import dev.puddle.core.metastore.Locations;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.storage.S3Location;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Where a table's or view's files may be, decided before anything is read or written there. A
 * requested location (an object's {@code location}, its {@code write.*.path} properties, a
 * registered metadata file) is normalised ({@link Locations#normalize}), then must be a URI of the
 * warehouse's scheme and bucket whose key has no empty, {@code .} or {@code ..} segment: storage
 * takes such keys literally while readers resolve them, so the same name would mean two places; nor
 * may it lie in the bucket's control folder ({@link WarehouseLayout#CONTROL_FOLDER}), Puddle's own.
 * The locations of an object that owns them (every object but a registered one) must also lie
 * within the warehouse's location.
 */
public final class RequestedLocations {
  /** The properties that name where a table's or view's files are written. */
  static final List<String> WRITE_PATHS =
      List.of(
          TableProperties.WRITE_DATA_LOCATION,
          TableProperties.WRITE_METADATA_LOCATION,
          TableProperties.OBJECT_STORE_PATH,
          TableProperties.WRITE_FOLDER_STORAGE_LOCATION);

  private RequestedLocations() {}

  /**
   * Fails unless an object's location and write paths may be used: in the warehouse's bucket, and
   * within the warehouse's location if the object owns its location.
   */
  static void checkObject(
      Warehouse warehouse, boolean owned, String location, Map<String, String> properties) {
    for (String candidate : roots(location, properties)) {
      String normalized = check(warehouse, candidate);
      if (owned && !Locations.isWithin(normalized, warehouse.location())) {
        throw new BadRequestException(
            "Location %s is outside the warehouse location %s", normalized, warehouse.location());
      }
    }
  }

  /**
   * Fails unless a create's requested location (null: the catalog picks one) and write paths may be
   * used by a table that owns them: checked on the request itself, so that a staged create, which
   * commits nothing yet, is refused as a create is.
   */
  public static void checkCreate(
      Warehouse warehouse, String location, Map<String, String> properties) {
    for (String candidate : roots(location, properties)) {
      if (candidate != null) {
        checkObject(warehouse, true, candidate, Map.of());
      }
    }
  }

  /** The object's location and the write paths its properties set, as given. */
  static List<String> roots(String location, Map<String, String> properties) {
    List<String> roots = new ArrayList<>();
    roots.add(location);
    for (String property : WRITE_PATHS) {
      String path = properties.get(property);
      if (path != null) {
        roots.add(path);
      }
    }
    return roots;
  }

  /**
   * A location, normalised, once it is known to be in the warehouse's bucket with no empty, {@code
   * .} or {@code ..} segment.
   */
  public static String check(Warehouse warehouse, String location) {
    if (location == null || location.isBlank()) {
      throw new BadRequestException("Invalid location: empty");
    }
    String normalized = Locations.normalize(location);
    String scheme = scheme(warehouse.location());
    S3Location bucket = S3Location.parse(warehouse.location()).orElse(null);
    if (!scheme.equals(scheme(normalized))) {
      throw new BadRequestException(
          "Invalid location %s: not a %s:// location", quoted(normalized), scheme);
    }
    S3Location parsed = S3Location.parse(normalized).orElse(null);
    if (bucket != null && (parsed == null || !parsed.bucket().equals(bucket.bucket()))) {
      throw new BadRequestException(
          "Invalid location %s: not in the warehouse's bucket %s",
          quoted(normalized), bucket.bucket());
    }
    int keyStart = normalized.indexOf('/', scheme.length() + 3);
    if (keyStart >= 0) {
      String key = normalized.substring(keyStart + 1);
      if (key.equals(WarehouseLayout.CONTROL_FOLDER)
          || key.startsWith(WarehouseLayout.CONTROL_FOLDER + "/")) {
        throw new BadRequestException(
            "Invalid location %s: the bucket's %s/ folder is the catalog's own",
            quoted(normalized), WarehouseLayout.CONTROL_FOLDER);
      }
      for (String segment : normalized.substring(keyStart + 1).split("/", -1)) {
        if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
          throw new BadRequestException(
              "Invalid location %s: empty, '.' and '..' segments are not allowed",
              quoted(normalized));
        }
      }
    }
    for (int i = 0; i < normalized.length(); i++) {
      if (Character.isISOControl(normalized.charAt(i))) {
        throw new BadRequestException(
            "Invalid location %s: control characters are not allowed", quoted(normalized));
      }
    }
    return normalized;
  }

  private static String scheme(String location) {
    int end = location.indexOf("://");
    return end < 0 ? "" : location.substring(0, end);
  }

  /** A location as a message quotes it: what a client sent, cut short. */
  private static String quoted(String location) {
    return location.length() <= 200 ? location : location.substring(0, 200) + "...";
  }
}
