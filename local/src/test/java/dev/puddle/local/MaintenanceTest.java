package dev.puddle.local;

import static dev.puddle.local.PurgeFunction.delivery;
import static dev.puddle.local.PurgeFunction.dyingAtFirstDelete;
import static dev.puddle.local.PurgeFunction.jobs;
import static dev.puddle.local.PurgeFunction.processor;
import static dev.puddle.local.PurgeFunction.tableId;
import static dev.puddle.local.StorageObjects.exists;
import static dev.puddle.local.TableFiles.dataFiles;
import static dev.puddle.local.TableFiles.metadata;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.MaintenanceJob;
import dev.puddle.core.metastore.MaintenanceJob.Counts;
import dev.puddle.core.metastore.MaintenanceJob.FileKind;
import dev.puddle.core.metastore.MaintenanceJob.Phase;
import dev.puddle.core.metastore.MaintenanceJob.State;
import dev.puddle.core.purge.PurgeQueue;
import dev.puddle.local.PurgeFunction.FunctionDied;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Table maintenance, end to end against the twin's real PostgreSQL, S3 and SQS: tables written with
 * Iceberg's own client, runs started through the outbox and carried by the purge queue into the
 * real purge handler, or fed to the same processor by hand where a test needs an invocation that
 * dies. What must stay and what must go is computed with Iceberg's own scan planning, before the
 * run, from the snapshots that stay and those that go.
 *
 * <p>Sizes are scaled down from the 1,000 snapshots and 10,000 files to tens, so the class
 * runs in seconds; {@link MaintenanceAtSizeTest} runs the full-size case, and the bench measures
 * its S3 requests.
 */
// generous: on a loaded machine building the tables alone can take a minute
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class MaintenanceTest {
  private static final Duration WAIT = Duration.ofSeconds(120);

  /**
   * How far behind the JVM's clock the file system's timestamps may be: its coarse clock's tick.
   */
  private static final Duration FILE_CLOCK_LAG = Duration.ofMillis(100);

  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()), required(2, "day", Types.StringType.get()));
  private static final PartitionSpec SPEC = PartitionSpec.unpartitioned();
  private static final Namespace NAMESPACE = Namespace.of("ops");
  private static final int SNAPSHOTS = 12;
  private static final int KEEP = 4;

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
    warehouse = TestTwin.newWarehouse("maintenance");
    catalog = client();
    catalog.createNamespace(NAMESPACE);
  }

  @Test
  void expiryKeepsEveryFileTheRemainingSnapshotsReachAndDeletesExactlyTheRest() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "events");
    Table table = historyTable(id);
    Expected expected = expected(table, KEEP);

    UUID job = start(id);
    MaintenanceJob done = awaitDone(job);

    Table after = catalog.loadTable(id);
    assertThat(after.snapshots()).hasSize(KEEP);
    assertThat(expected.kept()).isNotEmpty().allMatch(StorageObjects::exists);
    assertThat(expected.gone()).isNotEmpty().noneMatch(StorageObjects::exists);
    assertThat(liveFiles(after)).isEqualTo(liveFiles(table)).allMatch(StorageObjects::exists);
    for (Snapshot snapshot : after.snapshots()) {
      assertThat(dataFiles(after, snapshot.snapshotId())).allMatch(StorageObjects::exists);
    }
    assertThat(done.counts()).isEqualTo(expected.counts(SNAPSHOTS + 1 - KEEP));
    assertThat(done.lastError()).isNull();
  }

  @Test
  void writersCommittingDuringExpiryLoseNothing() throws Exception {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "busy");
    historyTable(id);
    // the writers race each other too: enough retries that none gives up under load
    catalog
        .loadTable(id)
        .updateProperties()
        .set(TableProperties.COMMIT_NUM_RETRIES, "100")
        .set(TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "10")
        .set(TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "200")
        .commit();
    int writers = 4;
    int appends = 3;
    ExecutorService threads = Executors.newFixedThreadPool(writers);
    List<Future<List<String>>> written = new ArrayList<>();
    UUID job;
    try {
      for (int w = 0; w < writers; w++) {
        RESTCatalog own = client();
        written.add(
            threads.submit(
                () -> {
                  List<String> paths = new ArrayList<>();
                  Table mine = own.loadTable(id);
                  for (int i = 0; i < appends; i++) {
                    DataFile file = writtenDataFile(mine);
                    mine.newFastAppend().appendFile(file).commit();
                    paths.add(file.location());
                  }
                  return paths;
                }));
      }
      // the run in this thread, in one invocation, while the writers commit
      job = jobs().start(tableId(warehouse, id), MaintenanceJob.Trigger.REQUEST).orElseThrow();
      assertThat(
              processor(s3, (kind, sent, delay) -> {})
                  .process(List.of(delivery(job, 1)), Deadline.in(Duration.ofSeconds(90))))
          .isEmpty();
      assertThat(jobs().find(job).orElseThrow().state()).isEqualTo(State.DONE);
    } finally {
      threads.shutdown();
    }
    Set<String> appended = new HashSet<>();
    for (Future<List<String>> future : written) {
      appended.addAll(future.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    }

    Table after = catalog.loadTable(id);
    assertThat(appended).hasSize(writers * appends);
    assertThat(liveFiles(after)).containsAll(appended).allMatch(StorageObjects::exists);
    for (Snapshot snapshot : after.snapshots()) {
      assertThat(dataFiles(after, snapshot.snapshotId())).allMatch(StorageObjects::exists);
    }
    assertThat(jobs().find(job).orElseThrow().counts().snapshotsExpired()).isPositive();
  }

  @Test
  void aFunctionKilledMidRunIsResumedFromItsCheckpoint() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "killed");
    Table table = historyTable(id);
    Expected expected = expected(table, KEEP);
    UUID job = jobs().start(tableId(warehouse, id), MaintenanceJob.Trigger.REQUEST).orElseThrow();
    List<UUID> handedOn = new ArrayList<>();
    PurgeQueue queue = (kind, sent, delay) -> handedOn.add(sent);

    // one step per invocation: the expiry commits, and the invocation hands the job on
    processor(s3, queue).process(List.of(delivery(job, 1)), Deadline.in(Duration.ofMillis(1)));
    MaintenanceJob expired = jobs().find(job).orElseThrow();
    assertThat(expired.phase()).isEqualTo(Phase.PLAN);
    assertThat(expired.state()).isEqualTo(State.QUEUED);
    assertThat(handedOn).containsExactly(job);
    String expiredAt = metadata(catalog.loadTable(id)).metadataFileLocation();
    // the next notes the files to delete
    processor(s3, queue).process(List.of(delivery(job, 1)), Deadline.in(Duration.ofMillis(1)));
    assertThat(jobs().find(job).orElseThrow().phase()).isEqualTo(Phase.DELETE);

    // the next dies at its first DeleteObjects, holding its claim
    assertThatThrownBy(
            () ->
                processor(dyingAtFirstDelete(s3), queue)
                    .process(List.of(delivery(job, 1)), Deadline.in(Duration.ofSeconds(2))))
        .isInstanceOf(FunctionDied.class);
    MaintenanceJob died = jobs().find(job).orElseThrow();
    assertThat(died.state()).isEqualTo(State.RUNNING);
    assertThat(died.phase()).isEqualTo(Phase.DELETE);
    assertThat(expected.gone()).allMatch(StorageObjects::exists);

    // once its claim ends, a redelivery takes over where the checkpoint says
    long deadline = System.nanoTime() + WAIT.toNanos();
    MaintenanceJob finished;
    while ((finished = jobs().find(job).orElseThrow()).state() != State.DONE) {
      assertThat(System.nanoTime()).as("done within %s: %s", WAIT, finished).isLessThan(deadline);
      processor(s3, queue).process(List.of(delivery(job, 2)), Deadline.in(Duration.ofSeconds(20)));
      LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
    }
    assertThat(finished.counts()).isEqualTo(expected.counts(SNAPSHOTS + 1 - KEEP));
    assertThat(metadata(catalog.loadTable(id)).metadataFileLocation())
        .as("the expiry was not committed again")
        .isEqualTo(expiredAt);
    assertThat(expected.gone()).noneMatch(StorageObjects::exists);
    assertThat(expected.kept()).allMatch(StorageObjects::exists);
  }

  @Test
  void orphansOlderThanTheWindowGoAndAFileBeingWrittenStays() {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "orphans");
    Table table =
        catalog.createTable(
            id,
            SCHEMA,
            SPEC,
            Map.of(
                TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true",
                TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "2"));
    for (int i = 0; i < 5; i++) {
      table.newFastAppend().appendFile(writtenDataFile(table)).commit();
    }
    String orphan = table.locationProvider().newDataLocation("failed-" + UUID.randomUUID());
    put(orphan);
    Instant orphanWritten = lastModified(orphan);
    // S3 times have whole seconds: the write in flight starts in a later one. The file system
    // stamps files from the kernel's coarse clock, which may lag the JVM's by a tick (a few ms),
    // so the later second must have begun by a margin on the JVM's clock too
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!Instant.now()
        .minus(FILE_CLOCK_LAG)
        .truncatedTo(ChronoUnit.SECONDS)
        .isAfter(orphanWritten)) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
    // an engine's write in flight: its file is there, its commit is not
    DataFile inFlight = writtenDataFile(table);
    Instant inFlightWritten = lastModified(inFlight.location());
    assertThat(inFlightWritten).isAfter(orphanWritten);
    Table current = catalog.loadTable(id);
    TableMetadata metadata = metadata(current);
    List<String> droppedFromLog =
        new ArrayList<>(StorageObjects.under(table.location() + "/metadata"));
    droppedFromLog.removeIf(path -> !path.endsWith(".metadata.json"));
    droppedFromLog.remove(metadata.metadataFileLocation());
    metadata.previousFiles().forEach(entry -> droppedFromLog.remove(entry.file()));

    // the run's clock says the write in flight is exactly the default 3 days old: not older
    UUID job = jobs().start(tableId(warehouse, id), MaintenanceJob.Trigger.REQUEST).orElseThrow();
    Clock clock = Clock.fixed(inFlightWritten.plus(Duration.ofDays(3)), ZoneOffset.UTC);
    List<String> failed =
        processor(s3, (kind, sent, delay) -> {}, clock)
            .process(List.of(delivery(job, 1)), Deadline.in(Duration.ofMinutes(1)));
    MaintenanceJob done = jobs().find(job).orElseThrow();

    assertThat(failed).isEmpty();
    assertThat(done.state()).isEqualTo(State.DONE);
    assertThat(exists(orphan)).isFalse();
    assertThat(exists(inFlight.location())).isTrue();
    // six versions (the create's and five appends'): the current, two in the log, three dropped
    assertThat(droppedFromLog).hasSize(3).noneMatch(StorageObjects::exists);
    assertThat(exists(metadata.metadataFileLocation())).isTrue();
    assertThat(metadata.previousFiles()).allMatch(entry -> exists(entry.file()));
    assertThat(liveFiles(current)).hasSize(5).allMatch(StorageObjects::exists);
    assertThat(done.counts().orphanFiles()).isEqualTo(1);
    assertThat(done.counts().metadataFiles()).isEqualTo(droppedFromLog.size());
    assertThat(done.counts().snapshotsExpired()).isZero();
    // the write in flight lands, and the table reads
    current.newFastAppend().appendFile(inFlight).commit();
    assertThat(liveFiles(catalog.loadTable(id))).hasSize(6).allMatch(StorageObjects::exists);
  }

  // ---------------------------------------------------------------------------------------------
  // tables

  /**
   * A table of {@link #SNAPSHOTS} appends of two files each, with a delete of the first four
   * appends' files after the fourth, a statistics file on the first snapshot, and retention set to
   * keep {@link #KEEP} snapshots: the rest are older than a millisecond.
   */
  private Table historyTable(TableIdentifier id) {
    Table table = catalog.createTable(id, SCHEMA, SPEC);
    List<DataFile> early = new ArrayList<>();
    for (int i = 0; i < SNAPSHOTS; i++) {
      if (i == 4) {
        var delete = table.newDelete();
        early.forEach(delete::deleteFile);
        delete.commit();
      }
      DataFile a = writtenDataFile(table);
      DataFile b = writtenDataFile(table);
      table.newFastAppend().appendFile(a).appendFile(b).commit();
      if (i < 4) {
        early.add(a);
        early.add(b);
      }
    }
    long first = table.snapshots().iterator().next().snapshotId();
    String statistics = table.location() + "/metadata/" + UUID.randomUUID() + ".stats";
    put(statistics);
    table
        .updateStatistics()
        .setStatistics(new GenericStatisticsFile(first, statistics, 10, 4, List.of()))
        .commit();
    table
        .updateProperties()
        .set(TableProperties.MIN_SNAPSHOTS_TO_KEEP, Integer.toString(KEEP))
        .set(TableProperties.MAX_SNAPSHOT_AGE_MS, "1")
        .commit();
    return catalog.loadTable(id);
  }

  /** A file and what it counts as when deleted: its kind and size as the metadata states it. */
  private record Reached(FileKind kind, long size) {}

  /** What a run expiring {@code table} down to its {@code keep} newest snapshots must leave. */
  private record Expected(Set<String> kept, Map<String, Reached> goneFiles) {
    Set<String> gone() {
      return goneFiles.keySet();
    }

    Counts counts(long snapshots) {
      Counts counts = Counts.expired(snapshots);
      for (Reached file : goneFiles.values()) {
        counts = counts.plus(Counts.deleted(file.kind(), file.size()));
      }
      return counts;
    }
  }

  /**
   * Reads, with Iceberg's scan planning, what the newest {@code keep} snapshots of the main branch
   * reach and what only the others reach.
   */
  private static Expected expected(Table table, int keep) {
    TableMetadata metadata = metadata(table);
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    List<Snapshot> kept = snapshots.subList(snapshots.size() - keep, snapshots.size());
    List<Snapshot> gone = snapshots.subList(0, snapshots.size() - keep);
    Map<String, Reached> keptFiles = reachedBy(table, kept);
    Map<String, Reached> goneFiles = reachedBy(table, gone);
    goneFiles.keySet().removeAll(keptFiles.keySet());
    metadata.statisticsFiles().stream()
        .filter(file -> gone.stream().anyMatch(s -> s.snapshotId() == file.snapshotId()))
        .forEach(
            file ->
                goneFiles.put(
                    file.path(), new Reached(FileKind.STATISTICS, file.fileSizeInBytes())));
    return new Expected(keptFiles.keySet(), goneFiles);
  }

  /**
   * Manifest lists (whose size the metadata does not state), manifests and live data files of the
   * snapshots, by path.
   */
  private static Map<String, Reached> reachedBy(Table table, List<Snapshot> snapshots) {
    Map<String, Reached> files = new HashMap<>();
    for (Snapshot snapshot : snapshots) {
      files.put(snapshot.manifestListLocation(), new Reached(FileKind.MANIFEST_LIST, 0));
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        files.put(manifest.path(), new Reached(FileKind.MANIFEST, manifest.length()));
      }
      try (CloseableIterable<FileScanTask> tasks =
          table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
        tasks.forEach(
            task ->
                files.put(
                    task.file().location(),
                    new Reached(FileKind.DATA, task.file().fileSizeInBytes())));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }

  private static Set<String> liveFiles(Table table) {
    return new HashSet<>(dataFiles(table, table.currentSnapshot().snapshotId()));
  }

  private static DataFile writtenDataFile(Table table) {
    String path = table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet");
    put(path);
    return DataFiles.builder(SPEC)
        .withPath(path)
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }

  // ---------------------------------------------------------------------------------------------
  // runs

  private RESTCatalog client() {
    return closing.add(TestTwin.restCatalog(warehouse, Map.of()));
  }

  /** Starts a run through the outbox, whose message goes on the twin's purge queue. */
  private UUID start(TableIdentifier id) {
    return new MaintenanceOutbox(
            jobs(), TestTwin.get().purge().queue(), MaintenanceOutbox.Settings.DEFAULTS)
        .start(tableId(warehouse, id))
        .orElseThrow();
  }

  private static MaintenanceJob awaitDone(UUID job) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      MaintenanceJob current = jobs().find(job).orElseThrow();
      if (current.state() == State.DONE) {
        return current;
      }
      assertThat(current.state()).as("%s", current).isNotEqualTo(State.FAILED);
      assertThat(System.nanoTime()).as("done within %s: %s", WAIT, current).isLessThan(deadline);
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // objects

  private static void put(String path) {
    StorageObjects.put(s3, path, RequestBody.fromString("maintenance " + path));
  }

  private static Instant lastModified(String path) {
    return s3.headObject(b -> b.bucket(LocalTwin.BUCKET).key(StorageObjects.key(path)))
        .lastModified();
  }
}
