package dev.puddle.local;

import static dev.puddle.local.StorageObjects.exists;
import static dev.puddle.local.TableFiles.dataFiles;
import static dev.puddle.local.TableFiles.metadata;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.Route;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.aws.SqsPurgeQueue;
import dev.puddle.core.metastore.PurgeJob;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.purge.PurgeMessage;
import dev.puddle.core.purge.PurgeQueue;
import dev.puddle.core.purge.PurgeWorker;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.functions.PurgeHandler;
import dev.puddle.local.PurgeFunction.FunctionDied;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.ImmutableGenericPartitionStatisticsFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Drops with purge, end to end against the twin's real PostgreSQL, S3 and SQS: tables written with
 * Iceberg's own client are dropped through the REST API, the job travels through the purge queue
 * into the real purge handler, and its progress is read back through the admin endpoint.
 *
 * <p>Where a test needs a purge function that dies, or a queue of its own, it builds them from the
 * same classes the twin uses, over its own queue pair on the twin's SQS server. Deliveries are
 * asynchronous by nature, so tests wait for a job's state by polling with a bounded deadline.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PurgeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path EVENTS = Path.of(System.getProperty("puddle.events.dir", "../events"));
  private static final Duration WAIT = Duration.ofSeconds(45);
  private static final Duration PROBE_INTERVAL = Duration.ofMillis(50);
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()), required(2, "day", Types.StringType.get()));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("day").build();
  private static final Namespace NAMESPACE = Namespace.of("sales");
  private static final AtomicInteger QUEUES = new AtomicInteger();

  private static final TwinHttp HTTP = TwinHttp.root();

  private static S3Client s3;

  @RegisterExtension final Closing closing = new Closing();
  private String warehouse;
  private RESTCatalog catalog;

  @BeforeAll
  static void clients() {
    s3 = S3Objects.client(TestTwin.get().storage().clientProperties());
  }

  @AfterAll
  static void closeClients() {
    s3.close();
  }

  @BeforeEach
  void setUp() {
    useWarehouse(TestTwin.newWarehouse("purge"));
  }

  @Test
  void aTableWithSnapshotsManifestsAndDataFilesIsPurgedCompletely() {
    Table table = writtenTable(TableIdentifier.of(NAMESPACE, "orders"), 3);
    Set<String> reachable = reachableFiles(table);
    assertThat(reachable)
        .as("metadata files, manifest lists, manifests, data, delete and statistics files")
        .hasSizeGreaterThan(20)
        .allMatch(StorageObjects::exists);
    List<String> under = StorageObjects.under(table.location());

    catalog.dropTable(TableIdentifier.of(NAMESPACE, "orders"), true);

    JsonNode job = awaitJob("sales.orders", "done");
    assertThat(StorageObjects.under(table.location())).isEmpty();
    assertThat(reachable).noneMatch(StorageObjects::exists);
    assertThat(job.get("deleted-files").asLong()).isEqualTo(under.size());
    assertThat(job.get("skipped-files").asLong()).isZero();
    assertThat(job.get("kind").asText()).isEqualTo("table");
    assertThat(job.get("owns-location").asBoolean()).isTrue();
    assertThat(job.get("finished-at").isNull()).isFalse();
  }

  @Test
  void filesOutsideTheLocationAreCountedAndLeftAloneAsIsEveryOtherTable() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orders");
    Table table = writtenTable(id, 2);
    String outside = warehouseLocation() + "/shared/imported-" + UUID.randomUUID() + ".parquet";
    put(outside);
    table.newFastAppend().appendFile(dataFile(outside)).commit();
    Table neighbour = writtenTable(TableIdentifier.of(NAMESPACE, "orders_2"), 2);
    List<String> neighbourFiles = StorageObjects.under(neighbour.location());
    List<String> warehouseBefore = StorageObjects.under(warehouseLocation());

    catalog.dropTable(id, true);

    JsonNode job = awaitJob("sales.orders", "done");
    assertThat(job.get("skipped-files").asLong()).isEqualTo(1);
    assertThat(exists(outside)).isTrue();
    assertThat(StorageObjects.under(neighbour.location())).isEqualTo(neighbourFiles);
    assertThat(dataFiles(catalog.loadTable(neighbourId())))
        .hasSize(2 * 2)
        .allMatch(StorageObjects::exists);
    List<String> expectedLeft = new ArrayList<>(warehouseBefore);
    expectedLeft.removeIf(path -> path.startsWith(table.location() + "/"));
    assertThat(StorageObjects.under(warehouseLocation()))
        .containsExactlyInAnyOrderElementsOf(expectedLeft);
  }

  @Test
  void aWarehouseThatOptsInLetsPurgesDeleteOutsideTheLocationButNotInsideALiveTable() {
    useWarehouse(
        TestTwin.newWarehouse("purge-outside", Map.of(PurgeWorker.DELETE_OUTSIDE, "true")));
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orders");
    Table table = writtenTable(id, 1);
    Table neighbour = writtenTable(neighbourId(), 1);
    String outside = warehouseLocation() + "/shared/imported-" + UUID.randomUUID() + ".parquet";
    put(outside);
    String neighbours = dataFiles(neighbour).get(0);
    table.newFastAppend().appendFile(dataFile(outside)).appendFile(dataFile(neighbours)).commit();

    catalog.dropTable(id, true);

    JsonNode job = awaitJob("sales.orders", "done");
    assertThat(exists(outside)).isFalse();
    assertThat(exists(neighbours)).as("a file inside a live table's location").isTrue();
    assertThat(job.get("skipped-files").asLong()).isEqualTo(1);
    assertThat(StorageObjects.under(table.location())).isEmpty();
  }

  @Test
  void orphansUnderTheLocationAreDeletedToo() {
    Table table = writtenTable(TableIdentifier.of(NAMESPACE, "orders"), 1);
    // what no metadata reaches: a losing commit's metadata file, a failed engine write
    String lostCommit =
        table.location() + "/metadata/00007-" + UUID.randomUUID() + ".metadata.json";
    String failedWrite =
        table.location() + "/data/day=2024-06-11/failed-" + UUID.randomUUID() + ".parquet";
    put(lostCommit);
    put(failedWrite);
    assertThat(reachableFiles(table)).doesNotContain(lostCommit, failedWrite);

    catalog.dropTable(TableIdentifier.of(NAMESPACE, "orders"), true);

    awaitJob("sales.orders", "done");
    assertThat(exists(lostCommit)).isFalse();
    assertThat(exists(failedWrite)).isFalse();
    assertThat(StorageObjects.under(table.location())).isEmpty();
  }

  @Test
  void aPurgeFunctionThatDiesAfterItsFirstBatchIsFinishedByRedelivery() throws Exception {
    LocalSqs.QueuePair queues = newQueues();
    SqsPurgeQueue queue = new SqsPurgeQueue(sqs(), queues.url());
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "large");
    Table table = writtenTable(id, 1);
    // more than one DeleteObjects batch under the location
    putAll(table.location() + "/data/day=2024-06-11/part-", 1200);
    int total = StorageObjects.under(table.location()).size();

    drop(id, queue);
    PurgePoller dying =
        new PurgePoller(
            sqs(), queues, handler(dyingAfterFirstDelete(s3), queue), Duration.ofSeconds(3));
    assertThatThrownBy(() -> untilReceived(dying)).isInstanceOf(FunctionDied.class);

    PurgeJob afterDeath = job("sales.large");
    assertThat(afterDeath.state()).isEqualTo(PurgeJob.State.RUNNING);
    assertThat(afterDeath.deletedFiles()).isEqualTo(S3Objects.BATCH);
    assertThat(StorageObjects.under(table.location())).hasSize(total - S3Objects.BATCH);

    PurgePoller redelivered =
        new PurgePoller(sqs(), queues, handler(s3, queue), Duration.ofSeconds(3));
    PurgeJob done = pollUntil(redelivered, "sales.large", PurgeJob.State.DONE);
    assertThat(StorageObjects.under(table.location())).isEmpty();
    assertThat(done.deletedFiles()).isEqualTo(total);
    assertThat(done.attempts()).isEqualTo(2);
    assertThat(done.lastError()).contains("stopped without finishing");
  }

  @Test
  void aPoisonJobLandsInTheDeadLetterQueueWithItsErrorRecorded() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "poison");
    Table table = writtenTable(id, 1);
    String metadataLocation = metadata(table).metadataFileLocation();
    put(metadataLocation, "{ this is not table metadata");

    catalog.dropTable(id, true);

    JsonNode job = awaitJob("sales.poison", "failed");
    assertThat(job.get("attempts").asInt()).isEqualTo(TestTwin.PURGE.maxReceives());
    assertThat(job.get("last-error").asText()).contains("JsonParseException");
    String jobId = job.get("id").asText();
    List<String> deadLetters =
        waitFor(
            () -> {
              List<String> bodies =
                  peek(TestTwin.get().purge().queues().deadLetterUrl()).stream()
                      .map(Message::body)
                      .filter(body -> body.contains(jobId))
                      .toList();
              return bodies.isEmpty() ? null : bodies;
            },
            "the job's message in the dead-letter queue");
    assertThat(deadLetters).hasSize(1);
    assertThat(exists(metadataLocation)).as("nothing was deleted").isTrue();
  }

  @Test
  void aFailedJobRedrivenOnceItsCauseIsFixedFinishes() throws IOException, InterruptedException {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "poison");
    Table table = writtenTable(id, 1);
    String metadataLocation = metadata(table).metadataFileLocation();
    String metadataJson = content(metadataLocation);
    put(metadataLocation, "{ this is not table metadata");
    catalog.dropTable(id, true);
    String jobId = awaitJob("sales.poison", "failed").get("id").asText();
    String jobPath = "/admin/v1/warehouses/" + warehouse + "/purge-jobs/";

    HttpResponse<String> early = redrive(jobPath + UUID.randomUUID());
    assertThat(early.statusCode()).as(early.body()).isEqualTo(404);
    put(metadataLocation, metadataJson);
    HttpResponse<String> redriven = redrive(jobPath + jobId);

    assertThat(redriven.statusCode()).as(redriven.body()).isEqualTo(200);
    assertThat(JSON.readTree(redriven.body()).get("state").asText()).isEqualTo("queued");
    JsonNode done = awaitJob("sales.poison", "done");
    assertThat(done.get("attempts").asInt()).isGreaterThan(TestTwin.PURGE.maxReceives());
    assertThat(StorageObjects.under(table.location())).isEmpty();
    HttpResponse<String> again = redrive(jobPath + jobId);
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.body()).contains("only a failed job can be redriven");
  }

  private static HttpResponse<String> redrive(String jobPath) {
    return HTTP.send("POST", jobPath + "/redrive", null);
  }

  @Test
  void aLostSendIsSentAgainByTheSweep() throws IOException {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orders");
    Table table = writtenTable(id, 1);

    drop(id, unreachableQueue());

    PurgeJob lost = job("sales.orders");
    assertThat(lost.state()).isEqualTo(PurgeJob.State.QUEUED);
    assertThat(lost.sentAt()).isNull();
    assertThat(StorageObjects.under(table.location())).isNotEmpty();

    JsonNode swept = PurgeFunction.sweep();

    assertThat(swept.get("resent").asInt()).isPositive();
    awaitJob("sales.orders", "done");
    assertThat(StorageObjects.under(table.location())).isEmpty();
  }

  @Test
  void aRecreatedTableOfTheSameNameKeepsAllItsFiles() throws IOException {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orders");
    Table dropped = writtenTable(id, 2);
    // the purge waits until the new table exists: its send is lost, and the sweep sends it
    drop(id, unreachableQueue());
    Table recreated = writtenTable(id, 2);
    List<String> recreatedFiles = StorageObjects.under(recreated.location());
    assertThat(recreated.location()).isNotEqualTo(dropped.location());

    PurgeFunction.sweep();

    awaitJob("sales.orders", "done");
    assertThat(StorageObjects.under(dropped.location())).isEmpty();
    assertThat(StorageObjects.under(recreated.location())).isEqualTo(recreatedFiles);
    Table loaded = catalog.loadTable(id);
    assertThat(dataFiles(loaded)).hasSize(2 * 2).allMatch(StorageObjects::exists);
  }

  @Test
  void aViewDroppedWithPurgeLosesItsMetadataFiles() throws Exception {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "daily");
    View view =
        catalog
            .buildView(id)
            .withSchema(SCHEMA)
            .withDefaultNamespace(NAMESPACE)
            .withQuery("spark", "SELECT 1 AS id, 'x' AS day")
            .create();
    catalog
        .buildView(id)
        .withSchema(SCHEMA)
        .withDefaultNamespace(NAMESPACE)
        .withQuery("spark", "SELECT 2 AS id, 'y' AS day")
        .replace();
    assertThat(StorageObjects.under(view.location())).hasSize(2);

    HttpResponse<String> response =
        HTTP.delete("/v1/" + warehouse + "/namespaces/sales/views/daily?purgeRequested=true");

    assertThat(response.statusCode()).isEqualTo(204);
    JsonNode job = awaitJob("sales.daily", "done");
    assertThat(job.get("kind").asText()).isEqualTo("view");
    assertThat(StorageObjects.under(view.location())).isEmpty();
  }

  @Test
  void aPurgeLongerThanOneInvocationGoesOnInContinuationMessages() throws Exception {
    LocalSqs.QueuePair queues = newQueues();
    SqsPurgeQueue queue = new SqsPurgeQueue(sqs(), queues.url());
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orders");
    Table table = writtenTable(id, 3);
    drop(id, queue);
    // so short a time limit leaves time for one step per invocation
    PurgePoller hurried = new PurgePoller(sqs(), queues, handler(s3, queue), Duration.ofMillis(1));

    PurgeJob done = pollUntil(hurried, "sales.orders", PurgeJob.State.DONE);

    assertThat(done.attempts()).as("invocations").isGreaterThan(3);
    assertThat(StorageObjects.under(table.location())).isEmpty();
    assertThat(peek(queues.deadLetterUrl())).isEmpty();
  }

  @Test
  void aPurgeWhoseFilesAreAlreadyGoneCompletes() throws Exception {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orders");
    Table table = writtenTable(id, 2);
    drop(id, unreachableQueue());
    for (String object : StorageObjects.under(table.location())) {
      s3.deleteObject(b -> b.bucket(LocalTwin.BUCKET).key(StorageObjects.key(object)));
    }

    PurgeFunction.sweep();

    JsonNode job = awaitJob("sales.orders", "done");
    assertThat(job.get("deleted-files").asLong()).isZero();
    assertThat(job.get("last-error").isNull()).isTrue();
  }

  /** Trino's smoke suite drops a table whose current manifest list it deleted. */
  @Test
  void aPurgeWhoseManifestListIsMissingDeletesEverythingElse() throws IOException {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orders");
    Table table = writtenTable(id, 2);
    String manifestList = table.currentSnapshot().manifestListLocation();
    table.io().deleteFile(manifestList);
    drop(id, unreachableQueue());

    PurgeFunction.sweep();

    JsonNode job = awaitJob("sales.orders", "done");
    assertThat(job.get("last-error").isNull()).isTrue();
    assertThat(StorageObjects.under(table.location())).isEmpty();
  }

  @Test
  void aRegisteredTableKeepsItsFilesUnlessTheWarehouseOptsIn() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orders");
    Table table = writtenTable(id, 1);
    catalog.dropTable(id, false);
    TableIdentifier registered = TableIdentifier.of(NAMESPACE, "registered");
    catalog.registerTable(registered, metadata(table).metadataFileLocation());
    List<String> files = StorageObjects.under(table.location());

    catalog.dropTable(registered, true);

    JsonNode job = awaitJob("sales.registered", "done");
    assertThat(job.get("owns-location").asBoolean()).isFalse();
    assertThat(job.get("skipped-files").asLong()).isEqualTo(reachableFiles(table).size());
    assertThat(StorageObjects.under(table.location())).isEqualTo(files);
  }

  @Test
  void aRegisteredTableInAWarehouseThatOptsInLosesWhatItsMetadataReachesOnly() {
    useWarehouse(
        TestTwin.newWarehouse("purge-registered", Map.of(PurgeWorker.DELETE_OUTSIDE, "true")));
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orders");
    Table table = writtenTable(id, 1);
    String unreached = table.location() + "/data/not-in-metadata.parquet";
    put(unreached);
    catalog.dropTable(id, false);
    TableIdentifier registered = TableIdentifier.of(NAMESPACE, "registered");
    catalog.registerTable(registered, metadata(table).metadataFileLocation());
    Set<String> reachable = reachableFiles(table);

    catalog.dropTable(registered, true);

    JsonNode job = awaitJob("sales.registered", "done");
    assertThat(job.get("deleted-files").asLong()).isEqualTo(reachable.size());
    assertThat(reachable).noneMatch(StorageObjects::exists);
    assertThat(StorageObjects.under(table.location())).containsExactly(unreached);
  }

  @Test
  void theSampleSqsEventReplayedWithAJobPurgesIt() throws IOException {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orders");
    Table table = writtenTable(id, 1);
    drop(id, unreachableQueue());
    ObjectNode event =
        (ObjectNode) JSON.readTree(EVENTS.resolve("sqs").resolve("purge.json").toFile());
    ((ObjectNode) event.get("Records").get(0))
        .put("body", PurgeMessage.body(job("sales.orders").id()));

    ByteArrayOutputStream output = new ByteArrayOutputStream();
    handler(s3, unreachableQueue())
        .handleRequest(
            new ByteArrayInputStream(JSON.writeValueAsBytes(event)),
            output,
            new LocalContext("sample", Duration.ofSeconds(30)));

    assertThat(JSON.readTree(output.toByteArray()).get("batchItemFailures")).isEmpty();
    assertThat(job("sales.orders").state()).isEqualTo(PurgeJob.State.DONE);
    assertThat(StorageObjects.under(table.location())).isEmpty();
  }

  // ---------------------------------------------------------------------------------------------
  // tables and files

  private void useWarehouse(String name) {
    warehouse = name;
    catalog = TestTwin.restCatalog(warehouse, Map.of());
    closing.add(catalog);
    catalog.createNamespace(NAMESPACE);
  }

  private static TableIdentifier neighbourId() {
    return TableIdentifier.of(NAMESPACE, "orders_2");
  }

  /**
   * A partitioned table with {@code snapshots} appends of two data files each, whose objects exist,
   * then a row delta with a position delete file, a statistics file and a partition statistics
   * file.
   */
  private Table writtenTable(TableIdentifier id, int snapshots) {
    Table table = catalog.createTable(id, SCHEMA, SPEC);
    for (int i = 0; i < snapshots; i++) {
      String day = "2024-06-1" + i;
      table
          .newFastAppend()
          .appendFile(writtenDataFile(table, day, "a"))
          .appendFile(writtenDataFile(table, day, "b"))
          .commit();
    }
    String deletes =
        table.locationProvider().newDataLocation("deletes-" + UUID.randomUUID() + ".parquet");
    put(deletes);
    DeleteFile deleteFile =
        FileMetadata.deleteFileBuilder(SPEC)
            .ofPositionDeletes()
            .withPath(deletes)
            .withPartitionPath("day=2024-06-10")
            .withFileSizeInBytes(10)
            .withRecordCount(1)
            .build();
    table.newRowDelta().addDeletes(deleteFile).commit();
    long snapshotId = table.currentSnapshot().snapshotId();
    String statistics = table.location() + "/metadata/" + UUID.randomUUID() + ".stats";
    put(statistics);
    table
        .updateStatistics()
        .setStatistics(new GenericStatisticsFile(snapshotId, statistics, 10, 4, List.of()))
        .commit();
    String partitionStatistics =
        table.location() + "/metadata/partition-stats-" + UUID.randomUUID() + ".parquet";
    put(partitionStatistics);
    table
        .updatePartitionStatistics()
        .setPartitionStatistics(
            ImmutableGenericPartitionStatisticsFile.builder()
                .snapshotId(snapshotId)
                .path(partitionStatistics)
                .fileSizeInBytes(10)
                .build())
        .commit();
    return catalog.loadTable(id);
  }

  private static DataFile writtenDataFile(Table table, String day, String name) {
    String path =
        table
            .locationProvider()
            .newDataLocation("day=" + day + "/" + name + "-" + UUID.randomUUID() + ".parquet");
    put(path);
    return DataFiles.builder(SPEC)
        .withPath(path)
        .withPartitionPath("day=" + day)
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }

  private static DataFile dataFile(String path) {
    return DataFiles.builder(SPEC)
        .withPath(path)
        .withPartitionPath("day=2024-06-30")
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }

  /** Every file the table's metadata reaches, read with Iceberg's own API. */
  private static Set<String> reachableFiles(Table table) {
    TableMetadata metadata = metadata(table);
    FileIO io = table.io();
    Set<String> files = new HashSet<>();
    files.add(metadata.metadataFileLocation());
    metadata.previousFiles().forEach(entry -> files.add(entry.file()));
    metadata.statisticsFiles().forEach(file -> files.add(file.path()));
    metadata.partitionStatisticsFiles().forEach(file -> files.add(file.path()));
    for (Snapshot snapshot : metadata.snapshots()) {
      files.add(snapshot.manifestListLocation());
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        files.add(manifest.path());
      }
      snapshot.addedDataFiles(io).forEach(file -> files.add(file.location()));
      snapshot.addedDeleteFiles(io).forEach(file -> files.add(file.location()));
    }
    return files;
  }

  private String warehouseLocation() {
    return "s3://" + LocalTwin.BUCKET + "/" + warehouse;
  }

  private static String content(String path) {
    return s3.getObjectAsBytes(b -> b.bucket(LocalTwin.BUCKET).key(StorageObjects.key(path)))
        .asUtf8String();
  }

  private static void put(String path) {
    put(path, "purge test " + path);
  }

  private static void put(String path, String content) {
    StorageObjects.put(s3, path, RequestBody.fromString(content));
  }

  /** Writes {@code count} small objects named {@code prefix} and a number, in parallel. */
  private static void putAll(String prefix, int count) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> puts = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String path = prefix + String.format("%05d", i) + ".parquet";
        puts.add(threads.submit(() -> put(path)));
      }
      for (Future<?> put : puts) {
        put.get();
      }
    } finally {
      threads.shutdown();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // drops, queues and handlers

  /** Drops a table with purge through a catalog whose purge jobs go to {@code queue}. */
  private void drop(TableIdentifier id, PurgeQueue queue) {
    CatalogApi api = TestTwin.rootApi(warehouse).purgeQueue(queue).build();
    Response response =
        api.handle(
            new Request(
                Route.DROP_TABLE,
                Map.of(
                    "prefix", warehouse, "namespace", id.namespace().level(0), "table", id.name()),
                Map.of("purgeRequested", "true"),
                Map.of(),
                null));
    assertThat(response.status()).as(response.body()).isEqualTo(204);
  }

  /** A purge queue that cannot be reached: every send is lost. */
  private static PurgeQueue unreachableQueue() {
    return (kind, job, delay) -> {
      throw new IllegalStateException("SQS unreachable");
    };
  }

  private static SqsClient sqs() {
    return TestTwin.get().purge().sqs().client();
  }

  /** A purge queue and dead-letter queue of the test's own, laid out as the twin's. */
  private static LocalSqs.QueuePair newQueues() {
    return TestTwin.get()
        .purge()
        .sqs()
        .createQueues(
            "purge-test-" + QUEUES.incrementAndGet(),
            TestTwin.PURGE.visibilityTimeout(),
            TestTwin.PURGE.maxReceives());
  }

  /** The purge handler as the twin wires it, over the given S3 client and queue. */
  private static PurgeHandler handler(S3Client client, PurgeQueue queue) {
    return new PurgeHandler(PurgeFunction.processor(client, queue));
  }

  /** An S3 client that works until its first {@code DeleteObjects} is answered, then dies. */
  private static S3Client dyingAfterFirstDelete(S3Client client) {
    AtomicInteger deletes = new AtomicInteger();
    return (S3Client)
        Proxy.newProxyInstance(
            S3Client.class.getClassLoader(),
            new Class<?>[] {S3Client.class},
            (proxy, method, args) -> {
              if (deletes.get() > 0 && !method.getName().equals("close")) {
                throw new FunctionDied();
              }
              try {
                Object result = method.invoke(client, args);
                if (method.getName().equals("deleteObjects")) {
                  deletes.incrementAndGet();
                }
                return result;
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  /** Polls until a batch arrives and is handed to the handler. */
  private static void untilReceived(PurgePoller poller) throws IOException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (poller.pollOnce() == 0) {
      assertThat(System.nanoTime()).as("a message within %s", WAIT).isLessThan(deadline);
    }
  }

  /** Feeds a queue's messages to a handler until the job reaches the state. */
  private PurgeJob pollUntil(PurgePoller poller, String identifier, PurgeJob.State state)
      throws IOException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      PurgeJob job = job(identifier);
      if (job.state() == state) {
        return job;
      }
      assertThat(System.nanoTime())
          .as("%s %s within %s, is %s", identifier, state, WAIT, job)
          .isLessThan(deadline);
      poller.pollOnce(); // waits up to a second for the next delivery
    }
  }

  /** The messages of a queue, left in it. */
  private static List<Message> peek(String queueUrl) {
    return sqs()
        .receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).visibilityTimeout(0))
        .messages();
  }

  // ---------------------------------------------------------------------------------------------
  // jobs

  /** This warehouse's job for the object of that name, from the metastore. */
  private PurgeJob job(String identifier) {
    PurgeJobs jobs = new PurgeJobs(TestTwin.get().database());
    long warehouseId =
        new Warehouses(TestTwin.get().database()).get(LocalTwin.REALM, warehouse).id();
    return jobs.list(LocalTwin.REALM, warehouseId, null, null, 1000).items().stream()
        .filter(job -> job.identifier().equals(identifier))
        .findFirst()
        .orElseThrow(() -> new AssertionError("No purge job for " + identifier));
  }

  /** Waits until the admin endpoint lists the object's job in that state, and returns it. */
  private JsonNode awaitJob(String identifier, String state) {
    return waitFor(
        () -> {
          for (JsonNode job : listPurgeJobs().get("purge-jobs")) {
            if (job.get("identifier").asText().equals(identifier)
                && job.get("state").asText().equals(state)) {
              return job;
            }
          }
          return null;
        },
        identifier + " " + state);
  }

  /** {@code GET /admin/v1/warehouses/{warehouse}/purge-jobs} on the twin's HTTP endpoint. */
  private JsonNode listPurgeJobs() {
    HttpResponse<String> response = HTTP.get("/admin/v1/warehouses/" + warehouse + "/purge-jobs");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TwinHttp.json(response);
  }

  /**
   * Polls until {@code probe} returns a value, within {@link #WAIT}: purge messages are delivered
   * asynchronously, redeliveries after the queue's visibility timeout.
   */
  private static <T> T waitFor(Supplier<T> probe, String what) {
    return Polling.waitFor(WAIT, PROBE_INTERVAL, probe, what);
  }
}
