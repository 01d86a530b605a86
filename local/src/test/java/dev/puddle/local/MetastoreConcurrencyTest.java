package dev.puddle.local;

import static dev.puddle.local.TableFiles.dataFiles;
import static dev.puddle.local.TableFiles.metadata;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.apache.iceberg.BaseTransaction;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The metastore's concurrency invariants (DESIGN.md, "Metastore invariants") as users rely on them,
 * exercised with several of Iceberg's own REST clients racing through the local twin against real
 * PostgreSQL and S3: no commit is lost and none that reported failure lands, a multi-table
 * transaction is all or nothing, of overlapping creates at most one wins, and a namespace drop
 * racing a create orphans nothing, neither in PostgreSQL nor in S3.
 *
 * <p>Racing calls are released together by a barrier; every wait and loop is bounded by the test's
 * deadline.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MetastoreConcurrencyTest {
  private static final Duration TIME_LIMIT = Duration.ofSeconds(60);
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));
  private static final Namespace NAMESPACE = Namespace.of("race");
  private static final String MARKER = "transaction-marker";

  /** Short client-side commit back-off, so that contended commits retry quickly. */
  private static final Map<String, String> QUICK_RETRIES =
      Map.of(
          TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "5",
          TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "100");

  private final long deadline = System.nanoTime() + TIME_LIMIT.toNanos();
  @RegisterExtension final Closing closing = new Closing();
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private String warehouse;
  private RESTCatalog catalog;

  /** The twin the tests run against; subclasses run them in another metastore access mode. */
  protected TestTwin twin() {
    return TestTwin.of(TestTwin.Mode.JDBC);
  }

  @BeforeEach
  void setUp() {
    warehouse = twin().warehouse("concurrency", Map.of());
    catalog = newClient();
    catalog.createNamespace(NAMESPACE);
  }

  @AfterEach
  void tearDown() throws IOException {
    threads.shutdownNow();
  }

  @Test
  void concurrentAppendsAreNeitherLostNorLandedAfterReportedFailure() throws Exception {
    int writers = 8;
    int appendsPerWriter = 5;
    TableIdentifier id = TableIdentifier.of(NAMESPACE, "appends");
    catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), QUICK_RETRIES);
    Set<String> landed = ConcurrentHashMap.newKeySet();
    Set<String> failed = ConcurrentHashMap.newKeySet();

    List<Callable<Void>> appenders = new ArrayList<>();
    for (int writer = 0; writer < writers; writer++) {
      appenders.add(appender(id, "writer-" + writer, appendsPerWriter, landed, failed));
    }
    race(appenders);

    Table table = catalog.loadTable(id);
    assertThat(landed).hasSize(writers * appendsPerWriter);
    assertThat(dataFiles(table))
        .containsExactlyInAnyOrderElementsOf(landed)
        .doesNotContainAnyElementsOf(failed);
    assertThat(table.snapshots()).hasSize(writers * appendsPerWriter);
    // a commit that lost its compare-and-swap must have deleted the metadata file it wrote
    TableMetadata metadata = metadata(table);
    Set<String> referenced = new HashSet<>();
    referenced.add(metadata.metadataFileLocation());
    metadata.previousFiles().forEach(entry -> referenced.add(entry.file()));
    assertThat(metadataFilesUnder(metadata.location()))
        .containsExactlyInAnyOrderElementsOf(referenced);
  }

  @Test
  void multiTableTransactionIsNeverHalfAppliedWhileSingleTableCommitsRace() throws Exception {
    TableIdentifier a = TableIdentifier.of(NAMESPACE, "a");
    TableIdentifier b = TableIdentifier.of(NAMESPACE, "b");
    catalog.createTable(a, SCHEMA, PartitionSpec.unpartitioned(), QUICK_RETRIES);
    catalog.createTable(b, SCHEMA, PartitionSpec.unpartitioned(), QUICK_RETRIES);
    AtomicBoolean transactionsDone = new AtomicBoolean();
    List<Callable<Void>> tasks = new ArrayList<>();

    tasks.add(transactions(a, b, transactionsDone));
    for (TableIdentifier id : List.of(a, b)) {
      tasks.add(singleTableCommits(id, true, transactionsDone));
      tasks.add(singleTableCommits(id, false, transactionsDone));
    }

    race(tasks);

    // the racing tasks checked every step; the end state says the same: both tables carry the
    // marker of the last transaction that landed, and transactions without an append always land
    String marker = catalog.loadTable(a).properties().get(MARKER);
    assertThat(marker).isNotNull();
    assertThat(catalog.loadTable(b).properties().get(MARKER)).isEqualTo(marker);
  }

  @Test
  void ofConcurrentOverlappingCreatesExactlyOneWins() throws Exception {
    List<RESTCatalog> creators = IntStream.range(0, 6).mapToObj(i -> newClient()).toList();
    for (int round = 0; round < 8; round++) {
      String base = warehouseLocation() + "/shared/round-" + round;
      List<Callable<Outcome<Table>>> creates = new ArrayList<>();
      for (int creator = 0; creator < creators.size(); creator++) {
        RESTCatalog client = creators.get(creator);
        // loc, loc/sub and loc/sub/sub: every pair overlaps
        String location = base + "/sub".repeat(creator % 3);
        TableIdentifier id = TableIdentifier.of(NAMESPACE, "round-" + round + "-" + creator);
        creates.add(
            () -> Outcome.of(() -> client.buildTable(id, SCHEMA).withLocation(location).create()));
      }

      List<Outcome<Table>> outcomes = race(creates);

      List<Table> winners =
          outcomes.stream().filter(Outcome::succeeded).map(Outcome::value).toList();
      assertThat(winners).as("round %s: %s", round, outcomes).hasSize(1);
      assertThat(outcomes)
          .filteredOn(outcome -> !outcome.succeeded())
          .allSatisfy(
              outcome -> assertThat(outcome.failure()).isInstanceOf(BadRequestException.class));
      // the losers wrote a metadata file before the overlap check and must have deleted it
      assertThat(metadataFilesUnder(base))
          .containsExactly(metadata(winners.get(0)).metadataFileLocation());
    }
    assertThat(overlappingOwnedLocations()).isEmpty();
  }

  @Test
  void droppingANamespaceWhileATableIsCreatedInItLeavesNoOrphan() throws Exception {
    RESTCatalog dropper = newClient();
    RESTCatalog creator = newClient();
    for (int round = 0; round < 20; round++) {
      Namespace namespace = Namespace.of("doomed-" + round);
      TableIdentifier id = TableIdentifier.of(namespace, "t");
      catalog.createNamespace(namespace);
      // a create takes several steps and a drop one, so the drop starts a varying number of
      // round trips late: the rounds then cover drops before, during and after the create
      int dropDelay = round % 10;

      List<Outcome<Object>> outcomes =
          race(
              List.of(
                  () ->
                      Outcome.of(
                          () -> {
                            for (int i = 0; i < dropDelay; i++) {
                              dropper.namespaceExists(namespace);
                            }
                            return dropper.dropNamespace(namespace);
                          }),
                  () -> Outcome.of(() -> creator.createTable(id, SCHEMA))));

      Outcome<Object> drop = outcomes.get(0);
      Outcome<Object> create = outcomes.get(1);
      String description = "round " + round + ": drop " + drop + ", create " + create;
      if (create.succeeded()) {
        assertThat(drop.failure()).as(description).isInstanceOf(NamespaceNotEmptyException.class);
        assertThat(catalog.namespaceExists(namespace)).as(description).isTrue();
        assertThat(catalog.tableExists(id)).as(description).isTrue();
      } else {
        assertThat(create.failure()).as(description).isInstanceOf(NoSuchNamespaceException.class);
        assertThat(drop.value()).as(description).isEqualTo(true);
        assertThat(catalog.namespaceExists(namespace)).as(description).isFalse();
        // a create that lost after writing its metadata file must have deleted it
        assertThat(metadataFilesUnder(warehouseLocation() + "/" + namespace.level(0)))
            .as(description)
            .isEmpty();
      }
    }
    assertThat(objectsWithoutNamespace()).isZero();
  }

  /**
   * Appends files to a table, one per commit, until {@code appends} of them landed; records which
   * files landed and which commits reported failure.
   */
  private Callable<Void> appender(
      TableIdentifier id, String writer, int appends, Set<String> landed, Set<String> failed) {
    Table table = newClient().loadTable(id);
    return () -> {
      int done = 0;
      // each attempt appends a new file, so that a failed attempt can be told apart
      for (int attempt = 0; done < appends; attempt++) {
        checkDeadline();
        DataFile file = TableFiles.metadataOnly(writer + "-" + attempt);
        try {
          table.newFastAppend().appendFile(file).commit();
          landed.add(file.location());
          done++;
        } catch (CommitFailedException e) {
          // the client ran out of retries under contention: allowed, as long as it did not land
          failed.add(file.location());
        }
      }
      return null;
    };
  }

  /**
   * Multi-table transactions that set a new marker on both tables, checking both tables after each:
   * they show the marker if the transaction succeeded and the previous one if it failed.
   */
  private Callable<Void> transactions(TableIdentifier a, TableIdentifier b, AtomicBoolean done) {
    RESTCatalog client = newClient();
    return () -> {
      try {
        String lastCommitted = null;
        for (int i = 0; i < 24; i++) {
          checkDeadline();
          String marker = "marker-" + i;
          // odd transactions also append, so they require an unchanged snapshot and may fail
          boolean withAppend = i % 2 == 1;
          Outcome<Void> outcome =
              Outcome.run(() -> commitMarker(client, List.of(a, b), marker, withAppend));
          if (outcome.succeeded()) {
            lastCommitted = marker;
          } else {
            assertThat(withAppend).as("a transaction without snapshot requirement lands").isTrue();
            assertThat(outcome.failure()).isInstanceOf(CommitFailedException.class);
          }
          for (TableIdentifier id : List.of(a, b)) {
            assertThat(client.loadTable(id).properties().get(MARKER))
                .as("%s after %s %s", id, marker, outcome)
                .isEqualTo(lastCommitted);
          }
        }
        return null;
      } finally {
        done.set(true);
      }
    };
  }

  /**
   * Commits, in one multi-table transaction, the marker property on every table and, if asked, an
   * append to each, which makes the transaction require the snapshot it started from.
   */
  private static void commitMarker(
      RESTCatalog client, List<TableIdentifier> tables, String marker, boolean withAppend) {
    List<TableCommit> commits = new ArrayList<>();
    for (TableIdentifier id : tables) {
      Transaction transaction = client.loadTable(id).newTransaction();
      transaction.updateProperties().set(MARKER, marker).commit();
      if (withAppend) {
        transaction
            .newFastAppend()
            .appendFile(TableFiles.metadataOnly(id.name() + "-" + marker))
            .commit();
      }
      BaseTransaction base = (BaseTransaction) transaction;
      commits.add(TableCommit.create(id, base.startMetadata(), base.currentMetadata()));
    }
    client.commitTransaction(commits);
  }

  /** Single-table commits to one table, appends or property updates, until {@code done}. */
  private Callable<Void> singleTableCommits(
      TableIdentifier id, boolean appends, AtomicBoolean done) {
    Table table = newClient().loadTable(id);
    String writer = (appends ? "appender-" : "updater-") + id.name();
    return () -> {
      for (int i = 0; !done.get(); i++) {
        checkDeadline();
        try {
          if (appends) {
            table.newFastAppend().appendFile(TableFiles.metadataOnly(writer + "-" + i)).commit();
          } else {
            table.updateProperties().set(writer, "" + i).commit();
          }
        } catch (CommitFailedException e) {
          // retries exhausted against the transactions: allowed, this test checks the transactions
        }
      }
      return null;
    };
  }

  /**
   * Runs the tasks on their own threads, released together by a barrier, and returns their results
   * in order; fails if any throws or the deadline passes.
   */
  private <T> List<T> race(List<Callable<T>> tasks) throws Exception {
    CyclicBarrier start = new CyclicBarrier(tasks.size());
    List<Future<T>> futures = new ArrayList<>();
    for (Callable<T> task : tasks) {
      futures.add(
          threads.submit(
              () -> {
                start.await(remainingNanos(), TimeUnit.NANOSECONDS);
                return task.call();
              }));
    }
    List<T> results = new ArrayList<>();
    for (Future<T> future : futures) {
      try {
        results.add(future.get(remainingNanos(), TimeUnit.NANOSECONDS));
      } catch (ExecutionException e) {
        // report what failed in the task, e.g. its assertion, rather than the wrapper
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        throw (Exception) e.getCause();
      }
    }
    return results;
  }

  private long remainingNanos() {
    return Math.max(0, deadline - System.nanoTime());
  }

  private void checkDeadline() throws TimeoutException {
    if (remainingNanos() == 0) {
      throw new TimeoutException("Test time limit of " + TIME_LIMIT + " exceeded");
    }
  }

  private RESTCatalog newClient() {
    return closing.add(twin().catalog(warehouse, Map.of()));
  }

  private String warehouseLocation() {
    return "s3://" + LocalTwin.BUCKET + "/" + warehouse;
  }

  /** Every metadata.json object in S3 below a location. */
  private List<String> metadataFilesUnder(String location) {
    SupportsPrefixOperations io = (SupportsPrefixOperations) twin().local().storage().io();
    return StreamSupport.stream(io.listPrefix(location + "/").spliterator(), false)
        .map(FileInfo::location)
        .filter(file -> file.endsWith(".metadata.json"))
        .toList();
  }

  /** Pairs of tables or views of this warehouse that own overlapping locations. */
  private List<String> overlappingOwnedLocations() {
    return twin()
        .local()
        .database()
        .autocommit(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT a.location || ' overlaps ' || b.location"
                          + " FROM catalog_object a"
                          + " JOIN catalog_object b ON b.warehouse_id = a.warehouse_id"
                          + " AND b.id <> a.id AND b.owns_location"
                          + " AND (b.location = a.location OR b.location LIKE a.location || '/%')"
                          + " JOIN warehouse w ON w.id = a.warehouse_id"
                          + " WHERE w.name = ? AND a.owns_location")) {
                statement.setString(1, warehouse);
                List<String> overlaps = new ArrayList<>();
                try (ResultSet rs = statement.executeQuery()) {
                  while (rs.next()) {
                    overlaps.add(rs.getString(1));
                  }
                }
                return overlaps;
              }
            });
  }

  /** Tables and views, of any warehouse, whose namespace row is missing. */
  private long objectsWithoutNamespace() {
    return twin()
        .local()
        .database()
        .autocommit(
            connection -> {
              try (PreparedStatement statement =
                      connection.prepareStatement(
                          "SELECT count(*) FROM catalog_object o"
                              + " LEFT JOIN namespace n ON n.id = o.namespace_id"
                              + " WHERE n.id IS NULL");
                  ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getLong(1);
              }
            });
  }

  /** What a racing call did: returned a value, or threw. */
  private record Outcome<T>(T value, RuntimeException failure) {
    static <T> Outcome<T> of(Supplier<T> call) {
      try {
        return new Outcome<>(call.get(), null);
      } catch (RuntimeException e) {
        return new Outcome<>(null, e);
      }
    }

    static Outcome<Void> run(Runnable call) {
      return of(
          () -> {
            call.run();
            return null;
          });
    }

    boolean succeeded() {
      return failure == null;
    }

    @Override
    public String toString() {
      return succeeded() ? "succeeded" : "failed with " + failure;
    }
  }
}
