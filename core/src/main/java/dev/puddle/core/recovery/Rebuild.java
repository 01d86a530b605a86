package dev.puddle.core.recovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogRestore;
import dev.puddle.core.metastore.Locations;
import dev.puddle.core.metastore.Warehouse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Rebuilds a lost metastore from what the warehouse bucket holds: first the principals, roles,
 * warehouses, namespaces and catalog roles of the latest catalog export, then, in every warehouse,
 * each table and view at its newest metadata file ({@link WarehouseScan}) in its namespace (the
 * name the export knew for its location, else the one its location spells), then the privileges.
 * Refuses a metastore that holds namespaces, tables or views unless forced; forced, it adds only
 * what is missing. Answers a JSON report of what it found, restored and skipped, and why.
 */
public final class Rebuild {
  /** The metastore holds catalog objects, and the rebuild was not forced. */
  public static final class NotEmptyException extends IllegalStateException {
    NotEmptyException(String message) {
      super(message);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The random suffix the catalog gives a table's default location: {@code <name>-<32 hex>}. */
  private static final Pattern LOCATION_SUFFIX = Pattern.compile("-[0-9a-f]{32}$");

  private final CatalogRestore restore;
  private final WarehouseScan scan;
  private final ExportStore exports;

  public Rebuild(CatalogRestore restore, WarehouseScan scan, ExportStore exports) {
    this.restore = restore;
    this.scan = scan;
    this.exports = exports;
  }

  /** Runs the rebuild; {@code force} lets it run over a metastore that is not empty. */
  public ObjectNode run(boolean force) {
    CatalogRestore.Contents contents = restore.contents();
    if (!contents.isEmpty() && !force) {
      throw new NotEmptyException(
          String.format(
              "The metastore is not empty (%d namespaces, %d tables and views, %d dropped): a"
                  + " rebuild fills an empty metastore. Force it to add only what is missing.",
              contents.namespaces(), contents.objects(), contents.droppedObjects()));
    }
    ObjectNode report = JSON.createObjectNode();
    report.put("forced", force);
    Optional<ExportStore.Latest> latest = exports.latest();
    JsonNode export = latest.map(ExportStore.Latest::document).orElse(null);
    ObjectNode exportReport = report.putObject("export");
    exportReport.put("location", latest.map(ExportStore.Latest::location).orElse(null));
    if (export == null) {
      exportReport.put(
          "note",
          "no export under "
              + exports.location()
              + ": principals, roles, grants and namespace"
              + " properties are not restored");
    } else {
      exportReport.put("exportedAt", export.path("exportedAt").asText());
      add(exportReport, restore.restoreEntities(export));
    }

    Map<String, Exported> exportedNames = exportedNames(export);
    ArrayNode warehouses = report.putArray("warehouses");
    for (Warehouse warehouse : restore.warehouses()) {
      warehouses.add(rebuild(warehouse, exportedNames));
    }
    if (export != null) {
      add(report.putObject("privileges"), restore.restorePrivileges(export));
    }
    return report;
  }

  private ObjectNode rebuild(Warehouse warehouse, Map<String, Exported> exportedNames) {
    ObjectNode report = JSON.createObjectNode();
    report.put("realm", warehouse.realm());
    report.put("warehouse", warehouse.name());
    report.put("location", warehouse.location());
    WarehouseScan.Result found = scan.scan(warehouse.location(), exports.location());
    report.put("metadataFiles", found.scanned());
    report.put("superseded", found.superseded());
    ArrayNode registered = report.putArray("registered");
    ArrayNode skipped = report.putArray("skipped");
    found
        .skipped()
        .forEach(s -> skipped.addObject().put("location", s.location()).put("reason", s.reason()));
    for (WarehouseScan.Found object : found.newest()) {
      String location = Locations.normalize(object.location());
      Exported exported = exportedNames.get(key(warehouse.realm(), warehouse.name(), location));
      TableIdentifier identifier =
          exported != null ? exported.identifier() : fromLocation(warehouse, location);
      if (identifier == null) {
        skipped
            .addObject()
            .put("location", object.metadataLocation())
            .put(
                "reason",
                "its location "
                    + location
                    + " names no namespace under the warehouse, and the"
                    + " export knows no object there");
        continue;
      }
      try {
        restore.ensureNamespace(warehouse, identifier.namespace());
        // an object the export knew keeps whether it owned its location; a found one is assumed
        // to own it, as every object the catalog created does
        boolean owns = exported == null || exported.ownsLocation();
        restore.register(
            warehouse,
            new CatalogObject(
                UUID.randomUUID(),
                identifier,
                object.kind(),
                location,
                owns,
                object.metadataLocation(),
                object.json()));
        registered
            .addObject()
            .put("identifier", identifier.toString())
            .put("kind", object.kind().sql())
            .put("metadataLocation", object.metadataLocation());
      } catch (RuntimeException e) {
        skipped
            .addObject()
            .put("location", object.metadataLocation())
            .put("reason", identifier + ": " + e.getMessage());
      }
    }
    return report;
  }

  /** What the export knew of an object at a location: its name, and whether it owned it. */
  private record Exported(TableIdentifier identifier, boolean ownsLocation) {}

  /** The export's objects, by realm, warehouse and normalized location. */
  private static Map<String, Exported> exportedNames(JsonNode export) {
    Map<String, Exported> names = new HashMap<>();
    if (export == null) {
      return names;
    }
    for (JsonNode row : export.path("objects")) {
      List<String> levels = new ArrayList<>();
      row.path("namespace").forEach(level -> levels.add(level.asText()));
      String location = Locations.normalize(row.path("location").asText());
      names.put(
          key(row.path("realm").asText(), row.path("warehouse").asText(), location),
          new Exported(
              TableIdentifier.of(
                  Namespace.of(levels.toArray(String[]::new)), row.path("name").asText()),
              row.path("ownsLocation").asBoolean(true)));
    }
    return names;
  }

  private static String key(String realm, String warehouse, String location) {
    return realm + '\u0000' + warehouse + '\u0000' + location;
  }

  /**
   * The name a location the catalog chose spells: {@code <warehouse>/<level>/…/<name>-<suffix>};
   * null if it lies outside the warehouse or directly in it.
   */
  static TableIdentifier fromLocation(Warehouse warehouse, String location) {
    String base = Locations.normalize(warehouse.location()) + "/";
    if (!location.startsWith(base)) {
      return null;
    }
    String[] segments = location.substring(base.length()).split("/");
    if (segments.length < 2) {
      return null;
    }
    String name = LOCATION_SUFFIX.matcher(segments[segments.length - 1]).replaceFirst("");
    String[] levels = new String[segments.length - 1];
    System.arraycopy(segments, 0, levels, 0, levels.length);
    return TableIdentifier.of(Namespace.of(levels), name);
  }

  private static void add(ObjectNode report, CatalogRestore.Restored restored) {
    ObjectNode written = report.putObject("restored");
    restored.written().forEach(written::put);
    ArrayNode skipped = report.putArray("skipped");
    for (CatalogRestore.Skipped s : restored.skipped()) {
      skipped.addObject().put("section", s.section()).put("row", s.row()).put("reason", s.reason());
    }
  }
}
