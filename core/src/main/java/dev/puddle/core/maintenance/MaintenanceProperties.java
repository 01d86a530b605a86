package dev.puddle.core.maintenance;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The settings of a table's maintenance: its own properties, else its warehouse's of the same name
 * (the warehouse-level defaults), else the defaults here. Expiry is off unless one of Iceberg's
 * three {@code history.expire.*} properties is set, so no table loses history by surprise.
 */
final class MaintenanceProperties {
  /** Whether orphan files are removed; on unless set to false. */
  static final String ORPHAN_FILES_ENABLED = "maintenance.orphan-files.enabled";

  /** How old an unreachable file must be before it is an orphan, in ms; 3 days unless set. */
  static final String ORPHAN_FILES_OLDER_THAN_MS = "maintenance.orphan-files.older-than-ms";

  static final Duration ORPHAN_FILES_OLDER_THAN_DEFAULT = Duration.ofDays(3);

  /** Iceberg's retention properties, which warehouses may default. */
  static final List<String> EXPIRY =
      List.of(
          TableProperties.MAX_SNAPSHOT_AGE_MS,
          TableProperties.MIN_SNAPSHOTS_TO_KEEP,
          TableProperties.MAX_REF_AGE_MS);

  private final Map<String, String> table;
  private final Map<String, String> warehouse;

  MaintenanceProperties(Map<String, String> table, Map<String, String> warehouse) {
    this.table = table;
    this.warehouse = warehouse;
  }

  private String get(String name) {
    String value = table.get(name);
    return value != null ? value : warehouse.get(name);
  }

  /** Whether the table's files may be deleted at all: Iceberg's {@code gc.enabled}. */
  boolean gcEnabled() {
    return PropertyUtil.propertyAsBoolean(
        table, TableProperties.GC_ENABLED, TableProperties.GC_ENABLED_DEFAULT);
  }

  boolean expiryEnabled() {
    return EXPIRY.stream().anyMatch(name -> get(name) != null);
  }

  /** The retention properties the warehouse sets and the table does not: what expiry adds. */
  Map<String, String> expiryDefaults() {
    Map<String, String> defaults = new HashMap<>();
    for (String name : EXPIRY) {
      if (!table.containsKey(name) && warehouse.containsKey(name)) {
        defaults.put(name, warehouse.get(name));
      }
    }
    return defaults;
  }

  /** Whether metadata files dropped from the metadata log are deleted: Iceberg's own property. */
  boolean deleteOldMetadata() {
    String value = get(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED);
    return value == null
        ? TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED_DEFAULT
        : Boolean.parseBoolean(value);
  }

  boolean orphanRemovalEnabled() {
    String value = get(ORPHAN_FILES_ENABLED);
    return value == null || Boolean.parseBoolean(value);
  }

  Duration orphanAge() {
    String value = get(ORPHAN_FILES_OLDER_THAN_MS);
    return value == null
        ? ORPHAN_FILES_OLDER_THAN_DEFAULT
        : Duration.ofMillis(Long.parseLong(value.trim()));
  }
}
