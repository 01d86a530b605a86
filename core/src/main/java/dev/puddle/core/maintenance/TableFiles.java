package dev.puddle.core.maintenance;

import dev.puddle.core.metastore.MaintenanceJob.FileKind;
import dev.puddle.core.metastore.MaintenanceJob.NotedFile;
import dev.puddle.core.storage.S3Location;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;

/**
 * The files a table's metadata reaches, by kind: manifest lists, manifests and the live data and
 * delete files they list, statistics files, and (for orphan removal) the metadata files. Paths are
 * compared as {@code s3://} URIs whatever scheme an engine wrote. Each manifest is read once per
 * walker, however many snapshots share it.
 */
final class TableFiles {
  private final FileIO io;
  private final Map<String, List<NotedFile>> contents = new HashMap<>();

  TableFiles(FileIO io) {
    this.io = io;
  }

  /** A path as compared: its {@code s3://} URI, or itself when it is not on S3. */
  static String normalized(String path) {
    return S3Location.parse(path).map(S3Location::uri).orElse(path);
  }

  /** Every file {@code metadata} reaches, metadata files included, normalized. */
  Set<String> reachable(TableMetadata metadata) {
    Set<String> files = new HashSet<>();
    if (metadata.metadataFileLocation() != null) {
      files.add(normalized(metadata.metadataFileLocation()));
    }
    for (TableMetadata.MetadataLogEntry entry : metadata.previousFiles()) {
      files.add(normalized(entry.file()));
    }
    snapshotFiles(metadata, metadata.snapshots(), false).keySet().forEach(files::add);
    // statistics are kept whatever snapshot they describe, so none the metadata names is deleted
    metadata.statisticsFiles().forEach(file -> files.add(normalized(file.path())));
    metadata.partitionStatisticsFiles().forEach(file -> files.add(normalized(file.path())));
    return files;
  }

  /**
   * The files the snapshots of {@code before} that {@code after} no longer holds reached, and that
   * nothing of {@code after} reaches: what their expiry left unreachable.
   */
  List<NotedFile> unreachable(TableMetadata before, TableMetadata after) {
    Set<Long> retained = new HashSet<>();
    after.snapshots().forEach(snapshot -> retained.add(snapshot.snapshotId()));
    List<Snapshot> expired =
        before.snapshots().stream()
            .filter(snapshot -> !retained.contains(snapshot.snapshotId()))
            .toList();
    Map<String, NotedFile> candidates = snapshotFiles(before, expired, true);
    if (candidates.isEmpty()) {
      return List.of();
    }
    for (String reachable : reachable(after)) {
      candidates.remove(reachable);
    }
    return new ArrayList<>(candidates.values());
  }

  /**
   * What {@code snapshots} of {@code metadata} reach: their manifest lists, manifests and live
   * content files, and the statistics files of the metadata that belong to them, by normalized
   * path. Only a walk of {@code lenient} snapshots, those whose files are to go, skips a manifest
   * list or manifest that is gone: a walk of what stays fails instead, since what it does not see
   * would be deleted.
   */
  private Map<String, NotedFile> snapshotFiles(
      TableMetadata metadata, List<Snapshot> snapshots, boolean lenient) {
    Map<String, NotedFile> files = new LinkedHashMap<>();
    Set<Long> ids = new HashSet<>();
    Set<String> manifests = new HashSet<>();
    for (Snapshot snapshot : snapshots) {
      ids.add(snapshot.snapshotId());
      if (snapshot.manifestListLocation() != null) {
        put(files, snapshot.manifestListLocation(), FileKind.MANIFEST_LIST, 0);
      }
      for (ManifestFile manifest : manifests(snapshot, lenient)) {
        if (!manifests.add(manifest.path())) {
          continue;
        }
        put(files, manifest.path(), FileKind.MANIFEST, manifest.length());
        for (NotedFile file : contents(metadata, manifest, lenient)) {
          put(files, file.path(), file.kind(), file.size());
        }
      }
    }
    for (StatisticsFile statistics : metadata.statisticsFiles()) {
      if (ids.contains(statistics.snapshotId())) {
        put(files, statistics.path(), FileKind.STATISTICS, statistics.fileSizeInBytes());
      }
    }
    for (PartitionStatisticsFile statistics : metadata.partitionStatisticsFiles()) {
      if (ids.contains(statistics.snapshotId())) {
        put(files, statistics.path(), FileKind.STATISTICS, statistics.fileSizeInBytes());
      }
    }
    return files;
  }

  private static void put(Map<String, NotedFile> files, String path, FileKind kind, long size) {
    files.putIfAbsent(normalized(path), new NotedFile(path, kind, size));
  }

  private List<ManifestFile> manifests(Snapshot snapshot, boolean lenient) {
    try {
      return snapshot.allManifests(io);
    } catch (NotFoundException e) {
      if (lenient) {
        return List.of(); // its manifest list is gone already
      }
      throw e;
    }
  }

  /** The live data or delete files a manifest lists. */
  private List<NotedFile> contents(TableMetadata metadata, ManifestFile manifest, boolean lenient) {
    List<NotedFile> cached = contents.get(manifest.path());
    if (cached != null) {
      return cached;
    }
    List<NotedFile> files = new ArrayList<>();
    try (ManifestReader<? extends ContentFile<?>> reader =
        switch (manifest.content()) {
          case DATA -> ManifestFiles.read(manifest, io, metadata.specsById());
          case DELETES -> ManifestFiles.readDeleteManifest(manifest, io, metadata.specsById());
        }) {
      for (ContentFile<?> file : reader) {
        files.add(
            new NotedFile(
                file.location(),
                file.content() == FileContent.DATA ? FileKind.DATA : FileKind.DELETE,
                file.fileSizeInBytes()));
      }
    } catch (NotFoundException e) {
      if (lenient) {
        return List.of();
      }
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    contents.put(manifest.path(), files);
    return files;
  }
}
