package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.functions.CatalogHandler;
import dev.puddle.local.OperationCostTest.S3Kind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The server's FileIO keeps iceberg-core's manifest cache ({@code io.manifest.cache-enabled}): a
 * catalog instance that plans a table's scan twice reads each of its manifests from S3 once. The
 * catalog here is one function instance of its own whose S3 requests are counted ({@link
 * CountedS3}); the engine writes the table straight to the twin's S3, uncounted.
 */
class ManifestCacheTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private static final int MANIFESTS = 3;
  private static final int FILES_PER_MANIFEST = 2;
  private static final int PREFETCHED_MANIFESTS = 6;

  @Test
  void planningATableTwiceReadsEachManifestFromS3Once() throws IOException {
    try (Planned planned = Planned.table("manifest_cache", MANIFESTS)) {
      assertThat(plannedFiles(planned.table())).isEqualTo(MANIFESTS * FILES_PER_MANIFEST);
      assertThat(plannedFiles(planned.table())).isEqualTo(MANIFESTS * FILES_PER_MANIFEST);

      assertThat(planned.manifestGets())
          .allSatisfy((path, times) -> assertThat(times).as(path).hasSize(1));
    }
  }

  /**
   * The planning thread reads the manifests one after another; their S3 reads are made ahead of it,
   * several at a time ({@code ManifestPrefetch}): with each GET held as long as S3 might take, read
   * one after another no GET could arrive within that time of the one before it.
   */
  @Test
  void aPlanReadsItsManifestsFromS3SeveralAtATime() throws IOException {
    Duration latency = Duration.ofMillis(200);
    try (Planned planned = Planned.table("manifest_prefetch", PREFETCHED_MANIFESTS)) {
      planned.s3().getLatency(latency);

      assertThat(plannedFiles(planned.table()))
          .isEqualTo(PREFETCHED_MANIFESTS * FILES_PER_MANIFEST);

      Map<String, List<Long>> gets = planned.manifestGets();
      assertThat(gets).allSatisfy((path, times) -> assertThat(times).as(path).hasSize(1));
      List<Long> arrivals = gets.values().stream().map(List::getFirst).sorted().toList();
      long closest = Long.MAX_VALUE;
      for (int i = 1; i < arrivals.size(); i++) {
        closest = Math.min(closest, arrivals.get(i) - arrivals.get(i - 1));
      }
      assertThat(Duration.ofNanos(closest)).isLessThan(latency);
    }
  }

  /**
   * A catalog instance of its own whose S3 requests are counted, and a table it plans, written by
   * an engine with one manifest per fast append; the requests counted start after the writes.
   */
  private record Planned(
      CountedS3 s3,
      Database database,
      HttpFront front,
      RESTCatalog engine,
      Table table,
      List<String> manifests)
      implements AutoCloseable {
    static Planned table(String name, int manifests) throws IOException {
      LocalTwin twin = TestTwin.get();
      String warehouse = TestTwin.newWarehouse(name, Map.of("scan-planning-mode", "server"));
      CountedS3 s3 = CountedS3.start(twin);
      Database database = TestTwin.ownDatabase();
      HttpFront front =
          HttpFront.start(
              "127.0.0.1",
              0,
              1,
              new ApiGatewayBridge(
                  new CatalogHandler(
                      CatalogApi.builder(
                              new CatalogApi.Settings(LocalTwin.REALM, warehouse),
                              database,
                              s3.storage())
                          .authenticator(RootCaller.of(LocalTwin.REALM))
                          .build()),
                  new InFlight()));
      RESTCatalog engine =
          TestTwin.restCatalog(
              warehouse,
              Map.of(
                  CatalogProperties.URI,
                  front.uri(),
                  S3FileIOProperties.ENDPOINT,
                  twin.s3Endpoint()));
      engine.createNamespace(Namespace.of("cache"));
      Table table = engine.createTable(TableIdentifier.of("cache", "events"), SCHEMA);
      for (int m = 0; m < manifests; m++) {
        var append = table.newFastAppend();
        for (int f = 0; f < FILES_PER_MANIFEST; f++) {
          append.appendFile(dataFile(table, m + "-" + f));
        }
        append.commit();
      }
      table.refresh();
      List<String> paths =
          table.currentSnapshot().allManifests(table.io()).stream()
              .map(ManifestFile::path)
              .toList();
      assertThat(paths).hasSize(manifests);
      s3.clear();
      return new Planned(s3, database, front, engine, table, paths);
    }

    /** When each of the table's manifests was read by the catalog since the writes. */
    Map<String, List<Long>> manifestGets() {
      List<CountedS3.Timed> requests = s3.timedRequests();
      return manifests.stream()
          .collect(
              Collectors.toMap(
                  Function.identity(),
                  location -> {
                    URI uri = URI.create(location);
                    String path = "/" + uri.getHost() + uri.getPath();
                    return requests.stream()
                        .filter(timed -> timed.request().kind() == S3Kind.GET)
                        .filter(timed -> timed.request().target().split("\\?", 2)[0].equals(path))
                        .map(CountedS3.Timed::nanos)
                        .toList();
                  }));
    }

    @Override
    public void close() throws IOException {
      try (s3;
          database;
          front;
          engine) {
        // closed in reverse order
      }
    }
  }

  /** The server plans the scan (the table carries the warehouse's mode); the files it found. */
  private static int plannedFiles(Table table) {
    assertThat(table.getClass().getSimpleName()).isEqualTo("RESTTable");
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask ignored : tasks) {
        files++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private static DataFile dataFile(Table table, String name) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(1024)
        .withRecordCount(1)
        .build();
  }
}
