package dev.puddle.local;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.contract.Route;
import dev.puddle.core.api.Deadline;
import dev.puddle.core.api.Request;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.maintenance.BackgroundWork;
import dev.puddle.core.metastore.PurgeJob;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.purge.PurgeMessage;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.functions.PurgeHandler;
import dev.puddle.functions.SqsBatchResponse;
import dev.puddle.functions.SqsEvent;
import dev.puddle.local.OperationCostTest.S3Kind;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Purge of a table of 10,000 data files, measured side by side against deleting the same objects
 * with one {@code DeleteObject} request each: S3 requests by kind, counted on the wire in front of
 * the twin's S3 server, and wall time. Prints its numbers; asserts only that both delete it all.
 *
 * <p>A benchmark, not a test: excluded from {@code ./mvnw verify}. Run it with
 *
 * <pre>
 * ./mvnw -B -pl local -am test -Dtest=PurgeBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dgroups=benchmark -Dpuddle.excludedGroups=
 * </pre>
 */
@Tag("benchmark")
class PurgeBenchmark {
  private static final int DATA_FILES = 10_000;
  private static final int FILES_PER_COMMIT = 1_000;
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));
  private static final Namespace NAMESPACE = Namespace.of("bench");

  @Test
  void purgeWithDeleteObjectsAgainstOneDeleteObjectPerFile() throws Exception {
    LocalTwin twin = TestTwin.get();
    String warehouse = TestTwin.newWarehouse("bench");
    try (RESTCatalog catalog = TestTwin.restCatalog(warehouse, Map.of());
        CountedS3 s3 = CountedS3.start(twin)) {
      catalog.createNamespace(NAMESPACE);
      TableIdentifier id = TableIdentifier.of(NAMESPACE, "events");
      Table table = catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned());
      List<String> dataFiles = new ArrayList<>();
      for (int i = 0; i < DATA_FILES; i++) {
        dataFiles.add(
            table.locationProvider().newDataLocation(String.format("part-%05d.parquet", i)));
      }
      StorageObjects.putAll(s3.direct(), dataFiles, "x");
      for (int start = 0; start < DATA_FILES; start += FILES_PER_COMMIT) {
        AppendFiles append = table.newFastAppend();
        for (String file : dataFiles.subList(start, start + FILES_PER_COMMIT)) {
          append.appendFile(
              DataFiles.builder(PartitionSpec.unpartitioned())
                  .withPath(file)
                  .withFileSizeInBytes(10)
                  .withRecordCount(1)
                  .build());
        }
        append.commit();
      }
      String location = table.location();
      List<String> objects = StorageObjects.under(location);

      // the purge: read metadata and manifests, list and delete in batches of 1000
      UUID job = drop(warehouse, id);
      s3.clear();
      long purgeStart = System.nanoTime();
      purge(twin, s3, job);
      long purgeNanos = System.nanoTime() - purgeStart;
      Map<S3Kind, Integer> purgeRequests = s3.byKind();
      assertThat(StorageObjects.under(location)).isEmpty();
      PurgeJob finished = new PurgeJobs(twin.database()).find(job).orElseThrow();
      assertThat(finished.deletedFiles()).isEqualTo(objects.size());

      // the same objects again, deleted one request per file
      StorageObjects.putAll(s3.direct(), objects, "x");
      s3.clear();
      long singleStart = System.nanoTime();
      for (String object : objects) {
        s3.client().deleteObject(b -> b.bucket(LocalTwin.BUCKET).key(StorageObjects.key(object)));
      }
      long singleNanos = System.nanoTime() - singleStart;
      Map<S3Kind, Integer> singleRequests = s3.byKind();
      assertThat(StorageObjects.under(location)).isEmpty();

      // and once more, deleted as the purge's last phase does, without reading any metadata
      StorageObjects.putAll(s3.direct(), objects, "x");
      s3.clear();
      long bulkStart = System.nanoTime();
      deleteUnder(new S3Objects(s3.client()), StorageObjects.key(location) + "/");
      long bulkNanos = System.nanoTime() - bulkStart;
      Map<S3Kind, Integer> bulkRequests = s3.byKind();
      assertThat(StorageObjects.under(location)).isEmpty();

      System.out.printf(
          "%nPurge of a table of %,d data files (%,d objects under its location)%n",
          DATA_FILES, objects.size());
      System.out.printf(
          "  whole purge, DeleteObjects batches : %6d ms, S3 requests %s%n",
          purgeNanos / 1_000_000, purgeRequests);
      System.out.printf(
          "  listing and DeleteObjects only     : %6d ms, S3 requests %s%n",
          bulkNanos / 1_000_000, bulkRequests);
      System.out.printf(
          "  one DeleteObject per file          : %6d ms, S3 requests %s%n",
          singleNanos / 1_000_000, singleRequests);
      System.out.printf(
          "  time ratio, one each / purge: %.1fx; one each / listing and DeleteObjects: %.1fx;"
              + " delete requests %d vs %d%n%n",
          (double) singleNanos / purgeNanos,
          (double) singleNanos / bulkNanos,
          purgeRequests.getOrDefault(S3Kind.DELETE, 0),
          singleRequests.getOrDefault(S3Kind.DELETE, 0));
    }
  }

  /** Drops the table with purge; returns its job, whose message the benchmark hands over itself. */
  private static UUID drop(String warehouse, TableIdentifier id) {
    AtomicReference<UUID> sent = new AtomicReference<>();
    CatalogApi api =
        TestTwin.rootApi(warehouse).purgeQueue((kind, job, delay) -> sent.set(job)).build();
    api.handle(
        new Request(
            Route.DROP_TABLE,
            Map.of("prefix", warehouse, "namespace", NAMESPACE.level(0), "table", id.name()),
            Map.of("purgeRequested", "true"),
            Map.of(),
            null));
    return sent.get();
  }

  /** One invocation of the real purge handler, with a function's 15 minutes, over counted S3. */
  private static void purge(LocalTwin twin, CountedS3 s3, UUID job) {
    PurgeHandler handler =
        new PurgeHandler(
            new BackgroundWork(twin.database())
                .processor(
                    s3.storage().io(),
                    new S3Objects(s3.client()),
                    (kind, id, delay) -> {
                      throw new AssertionError("The purge did not fit one invocation");
                    },
                    1,
                    Clock.systemUTC()));
    SqsEvent event =
        new SqsEvent(
            List.of(
                new SqsEvent.Message(
                    "bench",
                    "bench",
                    PurgeMessage.body(job),
                    Map.of(),
                    Map.of(),
                    null,
                    "aws:sqs",
                    "arn:aws:sqs:us-east-1:000000000000:bench",
                    LocalS3.REGION)));
    SqsBatchResponse response = handler.handle(event, Deadline.in(Duration.ofMinutes(15)));
    assertThat(response.batchItemFailures()).isEmpty();
  }

  /** Lists a prefix and deletes what it finds, a page of up to 1000 keys at a time. */
  private static void deleteUnder(S3Objects objects, String prefix) {
    String after = null;
    do {
      S3Objects.Listing listing = objects.list(LocalTwin.BUCKET, prefix, after);
      objects.delete(LocalTwin.BUCKET, listing.keys());
      after = listing.continueAfter();
    } while (after != null);
  }
}
