package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.metastore.BackgroundJobs.Claim;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.MaintenanceJob.Counts;
import dev.puddle.core.metastore.MaintenanceJob.FileKind;
import dev.puddle.core.metastore.MaintenanceJob.NotedFile;
import dev.puddle.core.metastore.MaintenanceJob.Phase;
import dev.puddle.core.metastore.MaintenanceJob.State;
import dev.puddle.core.metastore.MaintenanceJob.Trigger;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Maintenance jobs: one unfinished run per table however it is started, a commit's start debounced,
 * the schedule starting only tables due, checkpoints adding up and noting each file once, and a run
 * following its table through a rename.
 */
@ExtendWith(FreshDatabase.class)
class MaintenanceJobsTest {
  private static final Duration LEASE = Duration.ofMinutes(5);

  private CatalogObjects objects;
  private MaintenanceJobs jobs;
  private Warehouse warehouse;

  @BeforeEach
  void setUp(Database database) {
    objects = new CatalogObjects(database);
    jobs = new MaintenanceJobs(database);
    warehouse = new Warehouses(database).ensure("r", "wh", "s3://bucket/wh", Map.of());
    new Namespaces(database).create(warehouse, Namespace.of("ns"), Map.of(), Change.NONE);
  }

  private UUID table(String name) {
    UUID id = UUID.randomUUID();
    String location = "s3://bucket/wh/" + name;
    CatalogObject created =
        new CatalogObject(
            id,
            TableIdentifier.of("ns", name),
            Kind.TABLE,
            location,
            true,
            location + "/m.json",
            "{}");
    objects.create(warehouse, created, TestEvents.of(warehouse, created), Change.NONE);
    return id;
  }

  @Test
  void aTableHasOneUnfinishedRunHoweverItIsStarted() {
    UUID table = table("t");

    UUID first = jobs.start(table, Trigger.REQUEST).orElseThrow();
    assertThat(jobs.start(table, Trigger.REQUEST)).isEmpty();
    assertThat(jobs.startAfterCommit(table, Duration.ZERO)).isEmpty();
    assertThat(jobs.startDue(Duration.ZERO, 10)).isEmpty();

    Claim<MaintenanceJob> claim = (Claim<MaintenanceJob>) jobs.claim(first, LEASE);
    assertThat(jobs.start(table, Trigger.REQUEST)).as("one is running").isEmpty();
    jobs.finish(claim);
    Optional<UUID> second = jobs.start(table, Trigger.REQUEST);
    assertThat(second).isPresent().isNotEqualTo(Optional.of(first));

    MaintenanceJob job = jobs.find(first).orElseThrow();
    assertThat(job.state()).isEqualTo(State.DONE);
    assertThat(job.identifier()).isEqualTo("ns.t");
    assertThat(job.warehouseName()).isEqualTo("wh");
    assertThat(job.trigger()).isEqualTo(Trigger.REQUEST);
    assertThat(jobs.start(UUID.randomUUID(), Trigger.REQUEST)).as("no such table").isEmpty();
  }

  @Test
  void aCommitStartsNoRunWithinTheDebounceOfTheLastOne() {
    UUID table = table("t");
    Claim<MaintenanceJob> claim =
        (Claim<MaintenanceJob>) jobs.claim(jobs.start(table, Trigger.REQUEST).orElseThrow(), LEASE);
    jobs.finish(claim);

    assertThat(jobs.startAfterCommit(table, Duration.ofHours(1))).isEmpty();
    UUID started = jobs.startAfterCommit(table, Duration.ZERO).orElseThrow();
    assertThat(jobs.find(started).orElseThrow().trigger()).isEqualTo(Trigger.COMMIT);
  }

  @Test
  void theScheduleStartsTablesOlderThanTheIntervalWithoutARecentRun() {
    UUID fresh = table("fresh");
    assertThat(jobs.startDue(Duration.ofHours(1), 10)).as("created within the interval").isEmpty();

    List<UUID> started = jobs.startDue(Duration.ZERO, 10);
    assertThat(started).hasSize(1);
    MaintenanceJob job = jobs.find(started.get(0)).orElseThrow();
    assertThat(job.tableId()).isEqualTo(fresh);
    assertThat(job.trigger()).isEqualTo(Trigger.SCHEDULE);

    UUID other = table("other");
    assertThat(jobs.startDue(Duration.ZERO, 10))
        .as("the unfinished run of the first is left alone")
        .singleElement()
        .satisfies(id -> assertThat(jobs.find(id).orElseThrow().tableId()).isEqualTo(other));
  }

  @Test
  void checkpointsAddUpAndNoteEachFileOnce() {
    UUID id = jobs.start(table("t"), Trigger.REQUEST).orElseThrow();
    Claim<MaintenanceJob> claim = (Claim<MaintenanceJob>) jobs.claim(id, LEASE);
    NotedFile a = new NotedFile("s3://bucket/wh/t/a", FileKind.DATA, 10);
    NotedFile b = new NotedFile("s3://bucket/wh/t/b", FileKind.MANIFEST, 7);
    NotedFile c = new NotedFile("s3://bucket/wh/t/c", FileKind.MANIFEST_LIST, 0);

    assertThat(jobs.checkpoint(claim, Phase.PLAN, "m.json", Counts.expired(3), List.of())).isTrue();
    assertThat(jobs.checkpoint(claim, Phase.DELETE, null, Counts.NONE, List.of(c, a, b))).isTrue();
    jobs.checkpoint(claim, Phase.DELETE, null, Counts.NONE, List.of(a));
    jobs.checkpoint(
        claim,
        Phase.ORPHANS,
        "key",
        Counts.deleted(FileKind.DATA, 10).plus(Counts.deleted(FileKind.ORPHAN, 5)),
        List.of());

    MaintenanceJob job = jobs.find(id).orElseThrow();
    assertThat(job.phase()).isEqualTo(Phase.ORPHANS);
    assertThat(job.resumeAt()).isEqualTo("key");
    assertThat(job.counts()).isEqualTo(new Counts(3, 1, 0, 0, 0, 0, 0, 1, 15));
    assertThat(jobs.noted(id, null, 2)).containsExactly(a, b);
    assertThat(jobs.noted(id, b.path(), 2)).containsExactly(c);

    // a claim taken over fences the old one
    Claim<MaintenanceJob> stale = claim;
    jobs.release(stale);
    jobs.claim(id, LEASE);
    assertThat(jobs.checkpoint(stale, Phase.DONE, null, Counts.NONE, List.of())).isFalse();
  }

  @Test
  void aRunFollowsItsTableThroughARename() {
    UUID table = table("t");
    objects.rename(
        warehouse,
        TableIdentifier.of("ns", "t"),
        TableIdentifier.of("ns", "u"),
        Kind.TABLE,
        Change.NONE);

    assertThat(jobs.table(table)).contains(TableIdentifier.of("ns", "u"));
    assertThat(jobs.table(UUID.randomUUID())).isEmpty();
  }
}
