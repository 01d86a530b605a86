package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.functions.CatalogHandler;
import dev.puddle.local.OperationCostTest.S3Kind;
import dev.puddle.local.OperationCostTest.S3Request;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
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

  @Test
  void planningATableTwiceReadsEachManifestFromS3Once() throws IOException {
    LocalTwin twin = TestTwin.get();
    String warehouse =
        TestTwin.newWarehouse("manifest_cache", Map.of("scan-planning-mode", "server"));
    try (CountedS3 s3 = CountedS3.start(twin);
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
                    twin.s3Endpoint()))) {
      TableIdentifier id = TableIdentifier.of("cache", "events");
      engine.createNamespace(Namespace.of("cache"));
      Table table = engine.createTable(id, SCHEMA);
      // a fast append writes one manifest of its own and keeps the ones before it
      for (int m = 0; m < MANIFESTS; m++) {
        var append = table.newFastAppend();
        for (int f = 0; f < FILES_PER_MANIFEST; f++) {
          append.appendFile(dataFile(table, m + "-" + f));
        }
        append.commit();
      }
      table.refresh();
      List<String> manifests =
          table.currentSnapshot().allManifests(table.io()).stream()
              .map(ManifestFile::path)
              .toList();
      assertThat(manifests).hasSize(MANIFESTS);
      s3.clear();

      assertThat(plannedFiles(table)).isEqualTo(MANIFESTS * FILES_PER_MANIFEST);
      assertThat(plannedFiles(table)).isEqualTo(MANIFESTS * FILES_PER_MANIFEST);

      Map<String, Long> reads =
          manifests.stream().collect(Collectors.toMap(Function.identity(), path -> gets(s3, path)));
      assertThat(reads).allSatisfy((path, count) -> assertThat(count).as(path).isEqualTo(1L));
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

  /** The catalog's S3 GETs of the object at {@code location} (s3://bucket/key), path-style. */
  private static long gets(CountedS3 s3, String location) {
    URI uri = URI.create(location);
    String path = "/" + uri.getHost() + uri.getPath();
    List<S3Request> requests = s3.requests();
    return requests.stream()
        .filter(request -> request.kind() == S3Kind.GET)
        .filter(request -> request.target().split("\\?", 2)[0].equals(path))
        .count();
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
