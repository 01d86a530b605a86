package dev.puddle.core.planning;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ManifestEvaluator;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a scan's manifests into the FileIO's manifest cache ahead of the planning thread, several
 * at a time. The planning thread reads the manifests one after another ({@link ScanPlanner}), which
 * costs nothing for manifests already cached but would pay each one's S3 round trip (tens of
 * milliseconds on S3) in turn on a plan of manifests this instance has not read yet: fetched here
 * in parallel, the planning thread finds them cached, or waits for the fetch in progress (the cache
 * loads each path once: a reader asking for a path being loaded waits for that load).
 *
 * <p>The manifests fetched are those the scan can read: the delete manifests, which iceberg-core
 * indexes first, then the data manifests with live files, each only if its partition summaries can
 * match the filter ({@link ManifestEvaluator}, as iceberg-core prunes them), in the manifest list's
 * order, and only while they fit half the cache, so that they cannot push each other out before the
 * planning thread reaches them. Only the bytes are read; decoding is the planning thread's.
 */
final class ManifestPrefetch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ManifestPrefetch.class);

  /** How many manifests are fetched at once, by all plans of the instance together. */
  static final int CONCURRENT_FETCHES = 8;

  private static final ThreadPoolExecutor FETCHES = fetches();

  private static final ManifestPrefetch NONE = new ManifestPrefetch(List.of());

  private final List<Future<?>> fetches;

  private ManifestPrefetch(List<Future<?>> fetches) {
    this.fetches = fetches;
  }

  /**
   * Starts fetching the manifests a scan of {@code snapshot} with {@code filter} reads; none if
   * {@code io} keeps no manifest cache, where they would be read twice.
   */
  static ManifestPrefetch start(
      FileIO io,
      Map<Integer, PartitionSpec> specs,
      Snapshot snapshot,
      Expression filter,
      boolean caseSensitive) {
    Map<String, String> properties;
    try {
      properties = io.properties();
    } catch (UnsupportedOperationException e) {
      return NONE;
    }
    if (!PropertyUtil.propertyAsBoolean(
        properties,
        CatalogProperties.IO_MANIFEST_CACHE_ENABLED,
        CatalogProperties.IO_MANIFEST_CACHE_ENABLED_DEFAULT)) {
      return NONE;
    }
    long budget =
        PropertyUtil.propertyAsLong(
                properties,
                CatalogProperties.IO_MANIFEST_CACHE_MAX_TOTAL_BYTES,
                CatalogProperties.IO_MANIFEST_CACHE_MAX_TOTAL_BYTES_DEFAULT)
            / 2;
    long largest =
        PropertyUtil.propertyAsLong(
            properties,
            CatalogProperties.IO_MANIFEST_CACHE_MAX_CONTENT_LENGTH,
            CatalogProperties.IO_MANIFEST_CACHE_MAX_CONTENT_LENGTH_DEFAULT);
    List<ManifestFile> wanted = new ArrayList<>(snapshot.deleteManifests(io));
    for (ManifestFile manifest : snapshot.dataManifests(io)) {
      if (manifest.hasAddedFiles() || manifest.hasExistingFiles()) {
        wanted.add(manifest);
      }
    }
    Map<Integer, Optional<ManifestEvaluator>> evaluators = new HashMap<>();
    List<Future<?>> fetches = new ArrayList<>();
    for (ManifestFile manifest : wanted) {
      Optional<ManifestEvaluator> evaluator =
          evaluators.computeIfAbsent(
              manifest.partitionSpecId(), id -> evaluator(specs.get(id), filter, caseSensitive));
      if (manifest.length() > largest
          || evaluator.map(partitions -> !partitions.eval(manifest)).orElse(false)) {
        continue;
      }
      budget -= manifest.length();
      if (budget < 0) {
        break;
      }
      fetches.add(FETCHES.submit(() -> fetch(io, specs, manifest)));
    }
    return new ManifestPrefetch(fetches);
  }

  /**
   * What prunes the manifests of {@code spec}; none where the filter does not bind to the spec's
   * schema (a scan of an older snapshot with its own schema may name a column since dropped), whose
   * manifests are then all fetched.
   */
  private static Optional<ManifestEvaluator> evaluator(
      PartitionSpec spec, Expression filter, boolean caseSensitive) {
    if (spec == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(ManifestEvaluator.forRowFilter(filter, spec, caseSensitive));
    } catch (ValidationException e) {
      return Optional.empty();
    }
  }

  /** Reads {@code manifest}'s bytes through the manifest cache, as the scan will open it. */
  private static void fetch(FileIO io, Map<Integer, PartitionSpec> specs, ManifestFile manifest) {
    try (ManifestReader<?> reader =
            manifest.content() == ManifestContent.DELETES
                ? ManifestFiles.readDeleteManifest(manifest, io, specs)
                : ManifestFiles.read(manifest, io, specs);
        SeekableInputStream bytes = reader.file().newStream()) {
      // opening the cached file's stream loads its whole content into the cache
    } catch (IOException | RuntimeException e) {
      // the planning thread reads it again and reports what fails
      LOG.debug("Could not fetch manifest {} ahead of planning", manifest.path(), e);
    }
  }

  /** A prefetch of nothing. */
  static ManifestPrefetch none() {
    return NONE;
  }

  /** Drops the fetches not yet started: the plan is done, or stopped. */
  @Override
  public void close() {
    fetches.forEach(fetch -> fetch.cancel(false));
  }

  private static ThreadPoolExecutor fetches() {
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            CONCURRENT_FETCHES,
            CONCURRENT_FETCHES,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread = new Thread(task, "puddle-manifest-prefetch");
              thread.setDaemon(true);
              return thread;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
