package dev.puddle.local;

import static dev.puddle.local.PurgeFunction.delivery;
import static dev.puddle.local.PurgeFunction.dyingAtFirstDelete;
import static dev.puddle.local.PurgeFunction.jobs;
import static dev.puddle.local.PurgeFunction.processor;
import static dev.puddle.local.PurgeFunction.tableId;
import static dev.puddle.local.TableFiles.dataFiles;
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
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.Transactions;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.inmemory.InMemoryOutputFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.io.OutputFile;
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
 * The full-size case against the twin's real PostgreSQL, S3 server and purge function: a
 * table of 1,000 snapshots and 10,000 data files, each snapshot an overwrite of the previous one's
 * ten files, expired down to 10 snapshots. {@link MaintenanceTest} covers the same behaviours on
 * small tables with deletes and statistics; this class shows they hold at size.
 *
 * <p>The table is built cheaply but for real: tiny real files put in parallel, and the 1,000
 * overwrites made with Iceberg's own API inside transactions of 100 snapshots, whose manifests are
 * put in parallel before each commit ({@link WriteBehind}), so a REST commit carries 100 snapshots
 * and the catalog writes 10 metadata files instead of 1,000.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class MaintenanceAtSizeTest {
  private static final Duration WAIT = Duration.ofSeconds(180);
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));
  private static final PartitionSpec SPEC = PartitionSpec.unpartitioned();
  private static final Namespace NAMESPACE = Namespace.of("size");
  private static final int SNAPSHOTS = 1_000;
  private static final int FILES_PER_SNAPSHOT = 10;
  private static final int SNAPSHOTS_PER_COMMIT = 100;
  private static final int KEEP = 10;

  private static S3Client s3;
  private static ExecutorService io;

  @RegisterExtension final Closing closing = new Closing();
  private String warehouse;
  private RESTCatalog catalog;

  @BeforeAll
  static void clients() {
    s3 = S3Objects.client(TestTwin.get().storage().clientProperties());
    io = Executors.newFixedThreadPool(8);
  }

  @AfterAll
  static void closeClients() {
    io.shutdown();
    s3.close();
  }

  @BeforeEach
  void setUp() {
    warehouse = TestTwin.newWarehouse("maintenance-size");
    catalog = client();
    catalog.createNamespace(NAMESPACE);
  }

  /**
   * One table for all three claims, since building it is most of the cost: the run's expiry races
   * eight writers, and its deletes are cut short by a dying function and resumed from the
   * checkpoint. What must go is computed with Iceberg's own readers from every snapshot the table
   * ever had (the writers' included) before their files could go, and what must stay from the
   * snapshots that remain.
   */
  @Test
  void aThousandSnapshotsExpireToTheNewestWhileEightWritersCommitAndAKilledRunResumes()
      throws Exception {
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "history");
    List<String> dataFiles = new ArrayList<>();
    Table table = largeTable(id, dataFiles);
    List<Snapshot> before = snapshots(table);
    assertThat(before).hasSize(SNAPSHOTS);
    long started = System.nanoTime();
    Map<String, Reached> reachedBefore = reachedBy(table, before);
    // by construction each snapshot's live files are the ten it wrote: Iceberg's planning agrees
    for (int s : List.of(0, SNAPSHOTS / 2, SNAPSHOTS - 1)) {
      assertThat(dataFiles(table, before.get(s).snapshotId()))
          .containsExactlyInAnyOrderElementsOf(
              dataFiles.subList(s * FILES_PER_SNAPSHOT, (s + 1) * FILES_PER_SNAPSHOT));
    }
    // the writers race each other too: enough retries that none gives up under load
    table
        .updateProperties()
        .set(TableProperties.COMMIT_NUM_RETRIES, "100")
        .set(TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "10")
        .set(TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "200")
        .commit();

    UUID job = jobs().start(tableId(warehouse, id), MaintenanceJob.Trigger.REQUEST).orElseThrow();
    List<UUID> handedOn = new ArrayList<>();
    PurgeQueue queue = (kind, sent, delay) -> handedOn.add(sent);
    int writers = 8;
    int appends = 3;
    ExecutorService threads = Executors.newFixedThreadPool(writers);
    List<Future<List<Snapshot>>> written = new ArrayList<>();
    Set<String> appended = ConcurrentHashMap.newKeySet();
    try {
      for (int w = 0; w < writers; w++) {
        RESTCatalog own = client();
        written.add(
            threads.submit(
                () -> {
                  List<Snapshot> mine = new ArrayList<>();
                  Table t = own.loadTable(id);
                  for (int i = 0; i < appends; i++) {
                    String path =
                        t.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet");
                    put(path);
                    t.newFastAppend().appendFile(dataFile(path)).commit();
                    appended.add(path);
                    mine.add(t.currentSnapshot());
                  }
                  return mine;
                }));
      }
      // one step per invocation while the writers commit: the expiry, then the plan
      for (Phase next : List.of(Phase.PLAN, Phase.DELETE)) {
        processor(s3, queue).process(List.of(delivery(job, 1)), Deadline.in(Duration.ofMillis(1)));
        assertThat(jobs().find(job).orElseThrow().phase()).isEqualTo(next);
      }
    } finally {
      threads.shutdown();
    }
    List<Snapshot> all = new ArrayList<>(before);
    for (Future<List<Snapshot>> future : written) {
      all.addAll(future.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    }
    String expiredAt = metadataLocation(catalog.loadTable(id));
    // the first 1000 deletes, then a function dying at its first DeleteObjects, holding its claim
    processor(s3, queue).process(List.of(delivery(job, 1)), Deadline.in(Duration.ofMillis(1)));
    assertThat(jobs().find(job).orElseThrow().phase()).isEqualTo(Phase.DELETE);
    Set<String> midway = new HashSet<>(StorageObjects.under(table.location()));
    assertThat(reachedBefore.keySet().stream().filter(path -> !midway.contains(path)))
        .hasSize(S3Objects.BATCH);
    assertThatThrownBy(
            () ->
                processor(dyingAtFirstDelete(s3), queue)
                    .process(List.of(delivery(job, 1)), Deadline.in(Duration.ofSeconds(2))))
        .isInstanceOf(FunctionDied.class);
    assertThat(jobs().find(job).orElseThrow().state()).isEqualTo(State.RUNNING);
    // once its claim ends, a redelivery carries on from the checkpoint
    long deadline = System.nanoTime() + WAIT.toNanos();
    MaintenanceJob finished;
    while ((finished = jobs().find(job).orElseThrow()).state() != State.DONE) {
      assertThat(finished.state()).as("%s", finished).isNotEqualTo(State.FAILED);
      assertThat(System.nanoTime()).as("done within %s: %s", WAIT, finished).isLessThan(deadline);
      processor(s3, queue).process(List.of(delivery(job, 2)), Deadline.in(Duration.ofMinutes(2)));
      LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
    }
    long runMillis = (System.nanoTime() - started) / 1_000_000;

    // the writers lost nothing
    Table after = catalog.loadTable(id);
    assertThat(appended).hasSize(writers * appends);
    assertThat(dataFiles(after, after.currentSnapshot().snapshotId())).containsAll(appended);
    assertThat(unreadable(appended)).isEmpty();
    assertThat(metadataLocation(after))
        .as("the resumed run committed nothing again")
        .isEqualTo(expiredAt);
    // what stays: the newest snapshots of the history, at least ten, and all they reach
    List<Snapshot> remaining = snapshots(after);
    Set<Long> remainingIds = new HashSet<>();
    remaining.forEach(snapshot -> remainingIds.add(snapshot.snapshotId()));
    List<Long> history = all.stream().map(Snapshot::snapshotId).toList();
    assertThat(remaining).hasSizeGreaterThanOrEqualTo(KEEP);
    assertThat(remainingIds).containsAll(history.subList(history.size() - KEEP, history.size()));
    List<Snapshot> expired =
        all.stream().filter(snapshot -> !remainingIds.contains(snapshot.snapshotId())).toList();
    assertThat(expired).hasSizeGreaterThanOrEqualTo(SNAPSHOTS - KEEP);
    long newestExpired = expired.stream().mapToLong(Snapshot::sequenceNumber).max().orElseThrow();
    assertThat(remaining).allMatch(snapshot -> snapshot.sequenceNumber() > newestExpired);
    Map<String, Reached> keptFiles = reachedBy(after, remaining);
    Set<String> keptData = new HashSet<>();
    for (Snapshot snapshot : remaining) {
      keptData.addAll(dataFiles(after, snapshot.snapshotId()));
    }
    // what goes: what only the expired snapshots reached. A writer's snapshot reaches only its
    // manifest list beyond what the newest snapshot does, for a fast append carries every manifest
    Map<String, Reached> goneFiles = new HashMap<>();
    for (Snapshot snapshot : expired) {
      goneFiles.put(snapshot.manifestListLocation(), new Reached(FileKind.MANIFEST_LIST, 0));
    }
    reachedBefore.forEach(
        (path, file) -> {
          boolean expiredOriginal =
              file.kind() != FileKind.MANIFEST_LIST
                  || expired.stream().anyMatch(s -> s.manifestListLocation().equals(path));
          if (expiredOriginal) {
            goneFiles.put(path, file);
          }
        });
    goneFiles.keySet().removeAll(keptFiles.keySet());
    goneFiles.keySet().removeAll(keptData);
    Set<String> goneData = new HashSet<>(dataFiles);
    goneData.removeAll(keptData);
    assertThat(goneFiles.entrySet().stream().filter(e -> e.getValue().kind() == FileKind.DATA))
        .extracting(Map.Entry::getKey)
        .containsExactlyInAnyOrderElementsOf(goneData);

    Set<String> left = new HashSet<>(StorageObjects.under(table.location()));
    assertThat(keptFiles.keySet()).allMatch(left::contains);
    assertThat(unreadable(keptData)).isEmpty();
    for (Snapshot snapshot : remaining) {
      assertThat(unreadable(dataFiles(after, snapshot.snapshotId()))).isEmpty();
    }
    assertThat(goneFiles.keySet()).noneMatch(left::contains);
    Counts expected = Counts.expired(expired.size());
    for (Reached file : goneFiles.values()) {
      expected = expected.plus(Counts.deleted(file.kind(), file.size()));
    }
    assertThat(finished.counts()).isEqualTo(expected);
    assertThat(finished.counts().files()).isEqualTo(goneFiles.size());
    System.out.printf(
        "MaintenanceAtSizeTest: %,d snapshots expired, %,d files deleted (%s) in %d ms%n",
        expired.size(), goneFiles.size(), finished.counts(), runMillis);
  }

  // ---------------------------------------------------------------------------------------------
  // the table

  /**
   * A table of {@link #SNAPSHOTS} snapshots, each overwriting the previous one's {@link
   * #FILES_PER_SNAPSHOT} data files with new ones, and retention set to keep {@link #KEEP}: the
   * rest are older than a millisecond. {@code dataFiles} receives the data files in order.
   */
  private Table largeTable(TableIdentifier id, List<String> dataFiles) throws Exception {
    long start = System.nanoTime();
    Table table =
        catalog.createTable(
            id,
            SCHEMA,
            SPEC,
            Map.of(
                // the run is started here, not by the commits on the twin's queue
                MaintenanceOutbox.COMMIT_TRIGGER_SNAPSHOTS, Integer.toString(Integer.MAX_VALUE)));
    for (int i = 0; i < SNAPSHOTS * FILES_PER_SNAPSHOT; i++) {
      dataFiles.add(
          table.locationProvider().newDataLocation(String.format("part-%05d.parquet", i)));
    }
    putAll(dataFiles);
    List<DataFile> previous = List.of();
    TableOperations ops = ((HasTableOperations) table).operations();
    for (int commit = 0; commit < SNAPSHOTS / SNAPSHOTS_PER_COMMIT; commit++) {
      WriteBehind files = new WriteBehind(ops.io());
      Transaction transaction = Transactions.newTransaction(id.toString(), files.over(ops));
      for (int c = 0; c < SNAPSHOTS_PER_COMMIT; c++) {
        int s = commit * SNAPSHOTS_PER_COMMIT + c;
        List<DataFile> added =
            dataFiles.subList(s * FILES_PER_SNAPSHOT, (s + 1) * FILES_PER_SNAPSHOT).stream()
                .map(MaintenanceAtSizeTest::dataFile)
                .toList();
        OverwriteFiles overwrite = transaction.newOverwrite();
        previous.forEach(overwrite::deleteFile);
        added.forEach(overwrite::addFile);
        overwrite.commit();
        previous = added;
      }
      files.flush();
      transaction.commitTransaction();
    }
    table.refresh();
    table
        .updateProperties()
        .set(TableProperties.MIN_SNAPSHOTS_TO_KEEP, Integer.toString(KEEP))
        .set(TableProperties.MAX_SNAPSHOT_AGE_MS, "1")
        .commit();
    System.out.printf(
        "MaintenanceAtSizeTest: built %s (%,d snapshots, %,d data files) in %d ms%n",
        id, SNAPSHOTS, SNAPSHOTS * FILES_PER_SNAPSHOT, (System.nanoTime() - start) / 1_000_000);
    return catalog.loadTable(id);
  }

  /**
   * The manifests and manifest lists a transaction writes, kept in memory until {@link #flush} puts
   * them all in parallel, and read back from memory meanwhile: building the table then costs no S3
   * round trip per snapshot, and S3 still holds every file before the commit names it.
   */
  private static final class WriteBehind implements FileIO {
    private final FileIO storage;
    private final InMemoryFileIO buffer = new InMemoryFileIO();
    private final Set<String> written = ConcurrentHashMap.newKeySet();

    WriteBehind(FileIO storage) {
      this.storage = storage;
    }

    /** The table's operations, writing and reading through this. */
    TableOperations over(TableOperations ops) {
      FileIO io = this;
      return new TableOperations() {
        @Override
        public TableMetadata current() {
          return ops.current();
        }

        @Override
        public TableMetadata refresh() {
          return ops.refresh();
        }

        @Override
        public void commit(TableMetadata base, TableMetadata metadata) {
          ops.commit(base, metadata);
        }

        @Override
        public FileIO io() {
          return io;
        }

        @Override
        public String metadataFileLocation(String fileName) {
          return ops.metadataFileLocation(fileName);
        }

        @Override
        public LocationProvider locationProvider() {
          return ops.locationProvider();
        }

        @Override
        public long newSnapshotId() {
          return ops.newSnapshotId();
        }
      };
    }

    @Override
    public InputFile newInputFile(String path) {
      return written.contains(path) ? buffer.newInputFile(path) : storage.newInputFile(path);
    }

    @Override
    public OutputFile newOutputFile(String path) {
      written.add(path);
      return new InMemoryOutputFile(path, buffer);
    }

    @Override
    public void deleteFile(String path) {
      if (written.remove(path)) {
        buffer.deleteFile(path);
      } else {
        storage.deleteFile(path);
      }
    }

    void flush() throws Exception {
      List<Future<?>> puts = new ArrayList<>();
      for (String path : written) {
        puts.add(
            io.submit(
                () -> {
                  try (InputStream in = buffer.newInputFile(path).newStream()) {
                    byte[] bytes = in.readAllBytes();
                    StorageObjects.put(s3, path, RequestBody.fromBytes(bytes));
                  }
                  return null;
                }));
      }
      for (Future<?> put : puts) {
        put.get();
      }
    }
  }

  private static DataFile dataFile(String path) {
    return DataFiles.builder(SPEC)
        .withPath(path)
        .withFileSizeInBytes(content(path).length)
        .withRecordCount(1)
        .build();
  }

  /** What each file holds: its own path, so that a read shows it is the file that was written. */
  private static byte[] content(String path) {
    return path.getBytes(StandardCharsets.UTF_8);
  }

  private static List<Snapshot> snapshots(Table table) {
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    return snapshots;
  }

  /** A file and what it counts as when deleted: its kind and size as the metadata states it. */
  private record Reached(FileKind kind, long size) {}

  /**
   * Manifest lists (whose size the metadata does not state), manifests and live data files of the
   * snapshots, by path, read with Iceberg's own readers in parallel.
   */
  private static Map<String, Reached> reachedBy(Table table, List<Snapshot> snapshots)
      throws Exception {
    List<Future<Map<String, Reached>>> each = new ArrayList<>();
    for (Snapshot snapshot : snapshots) {
      each.add(
          io.submit(
              () -> {
                Map<String, Reached> files = new HashMap<>();
                files.put(snapshot.manifestListLocation(), new Reached(FileKind.MANIFEST_LIST, 0));
                for (ManifestFile manifest : snapshot.allManifests(table.io())) {
                  files.put(manifest.path(), new Reached(FileKind.MANIFEST, manifest.length()));
                }
                for (DataFile file : snapshot.addedDataFiles(table.io())) {
                  files.put(file.location(), new Reached(FileKind.DATA, file.fileSizeInBytes()));
                }
                return files;
              }));
    }
    Map<String, Reached> files = new HashMap<>();
    for (Future<Map<String, Reached>> future : each) {
      files.putAll(future.get());
    }
    return files;
  }

  private static String metadataLocation(Table table) {
    return TableFiles.metadata(table).metadataFileLocation();
  }

  // ---------------------------------------------------------------------------------------------
  // runs

  private RESTCatalog client() {
    return closing.add(TestTwin.restCatalog(warehouse, Map.of()));
  }

  // ---------------------------------------------------------------------------------------------
  // objects, checked in parallel

  private static void put(String path) {
    StorageObjects.put(s3, path, RequestBody.fromBytes(content(path)));
  }

  private static void putAll(List<String> paths) throws Exception {
    List<Future<?>> puts = new ArrayList<>();
    for (String path : paths) {
      puts.add(io.submit(() -> put(path)));
    }
    for (Future<?> put : puts) {
      put.get();
    }
  }

  /** Whether the data file holds what was written to it. */
  private static boolean reads(String path) {
    try (InputStream in = TestTwin.get().storage().io().newInputFile(path).newStream()) {
      return Arrays.equals(in.readAllBytes(), content(path));
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static List<String> filter(Collection<String> paths, Predicate<String> test)
      throws Exception {
    List<Future<Boolean>> each = new ArrayList<>();
    List<String> ordered = new ArrayList<>(paths);
    for (String path : ordered) {
      each.add(io.submit(() -> test.test(path)));
    }
    List<String> matching = new ArrayList<>();
    for (int i = 0; i < ordered.size(); i++) {
      if (each.get(i).get()) {
        matching.add(ordered.get(i));
      }
    }
    return matching;
  }

  private static List<String> unreadable(Collection<String> paths) throws Exception {
    return filter(paths, path -> !reads(path));
  }
}
