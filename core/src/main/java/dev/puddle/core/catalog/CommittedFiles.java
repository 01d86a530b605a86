package dev.puddle.core.catalog;

import dev.puddle.core.metastore.Warehouse;
import java.util.List;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The files a table commit adds to its metadata (a snapshot's manifest list, statistics and
 * partition statistics files) must lie within the locations the table may write: its location and
 * its {@code write.*.path} properties, as the commit leaves them, which {@link RequestedLocations}
 * keeps inside the warehouse (for a registered table: inside its bucket). Only what the commit adds
 * is checked, from the metadata alone, with no request to storage: the files a registered table's
 * metadata held when it was registered stay as they were.
 */
final class CommittedFiles {
  private CommittedFiles() {}

  /** Fails unless every file {@code metadata}'s changes add lies within its writable roots. */
  static void check(Warehouse warehouse, TableMetadata metadata) {
    // the roots as the metadata spells them: a location may end in a space, which belongs to its
    // last segment (Locations.normalize would strip it) and so to every file below it
    List<String> roots =
        RequestedLocations.roots(metadata.location(), metadata.properties()).stream()
            .map(CommittedFiles::withoutTrailingSlashes)
            .toList();
    for (MetadataUpdate update : metadata.changes()) {
      if (update instanceof MetadataUpdate.AddSnapshot add
          && add.snapshot().manifestListLocation() != null) {
        checkFile(warehouse, roots, "manifest list", add.snapshot().manifestListLocation());
      } else if (update instanceof MetadataUpdate.SetStatistics set) {
        checkFile(warehouse, roots, "statistics file", set.statisticsFile().path());
      } else if (update instanceof MetadataUpdate.SetPartitionStatistics set) {
        checkFile(
            warehouse, roots, "partition statistics file", set.partitionStatisticsFile().path());
      }
    }
  }

  private static String withoutTrailingSlashes(String location) {
    String result = location;
    while (result.endsWith("/") && !result.endsWith("://")) {
      result = result.substring(0, result.length() - 1);
    }
    return result;
  }

  private static void checkFile(Warehouse warehouse, List<String> roots, String what, String path) {
    String normalized = RequestedLocations.check(warehouse, path);
    if (roots.stream()
        .noneMatch(root -> normalized.equals(root) || normalized.startsWith(root + "/"))) {
      throw new BadRequestException(
          "Invalid %s %s: outside the table's locations %s", what, normalized, roots);
    }
  }
}
