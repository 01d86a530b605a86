package dev.puddle.core.purge;

import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.PurgeJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Walks every file a dropped table's metadata reaches, in resumable steps: first the metadata level
 * (the current metadata file and every one in its metadata log, statistics and partition statistics
 * files, the manifest list of every snapshot), then each manifest of each snapshot with the data
 * and delete files it lists. A step reads at most one manifest list and one manifest, so it is
 * short, and the walk resumes at the step after the last one checkpointed.
 *
 * <p>A view reaches only its current metadata file: the view specification keeps no log of earlier
 * ones, which lie in the view's own location when Puddle wrote them.
 *
 * <p>Files already gone are skipped, so a purge whose files were deleted completes. One walker
 * serves one job within one invocation: it keeps the metadata and the manifests it has read.
 */
final class ReachableFiles {
  /** The files one step reaches, and where the walk goes on (null when it is complete). */
  record Step(List<String> files, String next) {}

  private final FileIO io;
  private final PurgeJob job;
  private final Set<String> manifestsRead = new HashSet<>();
  private TableMetadata metadata;
  private int listedSnapshot = -1;
  private List<ManifestFile> listedManifests;

  ReachableFiles(FileIO io, PurgeJob job) {
    this.io = io;
    this.job = job;
  }

  /** The step at {@code position}: null for the first, else {@code snapshot:manifest}. */
  Step step(String position) {
    if (job.kind() == Kind.VIEW) {
      return new Step(List.of(job.metadataLocation()), null);
    }
    TableMetadata table = metadata();
    if (table == null) {
      return new Step(List.of(), null); // already purged, or never written
    }
    if (position == null) {
      return new Step(metadataLevel(table), table.snapshots().isEmpty() ? null : "0:0");
    }
    String[] parts = position.split(":");
    int snapshot = Integer.parseInt(parts[0]);
    int manifest = Integer.parseInt(parts[1]);
    List<ManifestFile> manifests = manifests(table, snapshot);
    List<String> files = new ArrayList<>();
    // manifests shared with snapshots already walked in this invocation need no second read
    while (manifest < manifests.size() && !manifestsRead.add(manifests.get(manifest).path())) {
      manifest++;
    }
    if (manifest < manifests.size()) {
      files.add(manifests.get(manifest).path());
      files.addAll(contents(table, manifests.get(manifest)));
      manifest++;
    }
    String next;
    if (manifest < manifests.size()) {
      next = snapshot + ":" + manifest;
    } else {
      next = snapshot + 1 < table.snapshots().size() ? (snapshot + 1) + ":0" : null;
    }
    return new Step(files, next);
  }

  private TableMetadata metadata() {
    if (metadata == null) {
      try {
        metadata = TableMetadataParser.read(io, job.metadataLocation());
      } catch (RuntimeException e) {
        if (!missing(e)) {
          throw e;
        }
        return null;
      }
    }
    return metadata;
  }

  private static List<String> metadataLevel(TableMetadata table) {
    List<String> files = new ArrayList<>();
    files.add(table.metadataFileLocation());
    table.previousFiles().forEach(entry -> files.add(entry.file()));
    table.statisticsFiles().stream().map(StatisticsFile::path).forEach(files::add);
    table.partitionStatisticsFiles().stream()
        .map(PartitionStatisticsFile::path)
        .forEach(files::add);
    table.snapshots().stream()
        .map(Snapshot::manifestListLocation)
        .filter(location -> location != null)
        .forEach(files::add);
    return files;
  }

  private List<ManifestFile> manifests(TableMetadata table, int index) {
    if (index != listedSnapshot) {
      try {
        listedManifests = table.snapshots().get(index).allManifests(io);
      } catch (RuntimeException e) {
        if (!missing(e)) {
          throw e;
        }
        listedManifests = List.of();
      }
      listedSnapshot = index;
    }
    return listedManifests;
  }

  /**
   * The data or delete files a manifest lists, live ones: the table's retained snapshots use them.
   */
  private List<String> contents(TableMetadata table, ManifestFile manifest) {
    List<String> files = new ArrayList<>();
    try (ManifestReader<? extends ContentFile<?>> reader = open(table, manifest)) {
      for (ContentFile<?> file : reader) {
        files.add(file.location());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      if (!missing(e)) {
        throw e;
      }
      return List.of();
    }
    return files;
  }

  /**
   * Whether reading a file failed because it is gone. S3FileIO says so with Iceberg's {@link
   * NotFoundException} when it opens a stream, but lets S3's own {@link NoSuchKeyException} through
   * when it asks for a file's length first, as the Avro readers of manifest lists and manifests do.
   */
  private static boolean missing(RuntimeException e) {
    return e instanceof NotFoundException || e instanceof NoSuchKeyException;
  }

  private ManifestReader<? extends ContentFile<?>> open(
      TableMetadata table, ManifestFile manifest) {
    return switch (manifest.content()) {
      // the path is all a purge needs of a data file
      case DATA -> ManifestFiles.read(manifest, io, table.specsById()).select(List.of("file_path"));
      case DELETES -> ManifestFiles.readDeleteManifest(manifest, io, table.specsById());
    };
  }
}
