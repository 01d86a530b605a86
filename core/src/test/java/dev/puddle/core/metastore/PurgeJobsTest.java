package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.metastore.BackgroundJobs.Busy;
import dev.puddle.core.metastore.BackgroundJobs.Claim;
import dev.puddle.core.metastore.BackgroundJobs.ClaimResult;
import dev.puddle.core.metastore.BackgroundJobs.NothingToDo;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.PurgeJob.Checkpoint;
import dev.puddle.core.metastore.PurgeJob.Phase;
import dev.puddle.core.metastore.PurgeJob.State;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Purge jobs: a claim is exclusive and fences every update, an expired claim is taken over and says
 * so, progress accumulates, listings page newest first, and the live-object guards match locations
 * literally.
 */
@ExtendWith(FreshDatabase.class)
class PurgeJobsTest {
  private static final Duration LEASE = Duration.ofMinutes(5);

  /** A lease already over when it is taken: its claim has expired by the next statement. */
  private static final Duration EXPIRED = Duration.ofSeconds(-1);

  private CatalogObjects objects;
  private PurgeJobs jobs;
  private Warehouse warehouse;

  @BeforeEach
  void setUp(Database database) {
    objects = new CatalogObjects(database);
    jobs = new PurgeJobs(database);
    warehouse = new Warehouses(database).ensure("r", "wh", "s3://bucket/wh", Map.of());
    new Namespaces(database).create(warehouse, Namespace.of("ns"), Map.of(), Change.NONE);
  }

  /** Creates a table at {@code location} and drops it with purge: its job's id. */
  private UUID dropped(String name, String location) {
    TableIdentifier identifier = TableIdentifier.of("ns", name);
    UUID id = UUID.randomUUID();
    CatalogObject created =
        new CatalogObject(id, identifier, Kind.TABLE, location, true, location + "/m.json", "{}");
    objects.create(warehouse, created, TestEvents.of(warehouse, created), Change.NONE);
    objects.drop(warehouse, identifier, Kind.TABLE, true, Change.NONE);
    return id;
  }

  private void live(String name, String location) {
    CatalogObject created =
        new CatalogObject(
            UUID.randomUUID(),
            TableIdentifier.of("ns", name),
            Kind.TABLE,
            location,
            true,
            location + "/m.json",
            "{}");
    objects.create(warehouse, created, TestEvents.of(warehouse, created), Change.NONE);
  }

  @Test
  void aClaimIsExclusiveUntilItEnds() {
    UUID id = dropped("t", "s3://bucket/wh/t");

    Claim<PurgeJob> first = (Claim<PurgeJob>) jobs.claim(id, LEASE);
    assertThat(first.job().state()).isEqualTo(State.RUNNING);
    assertThat(first.job().attempts()).isEqualTo(1);
    assertThat(jobs.claim(id, LEASE)).isInstanceOf(Busy.class);

    assertThat(jobs.release(first)).isTrue();
    Claim<PurgeJob> second = (Claim<PurgeJob>) jobs.claim(id, LEASE);
    assertThat(second.job().attempts()).isEqualTo(2);
    assertThat(jobs.finish(second)).isTrue();

    assertThat(jobs.claim(id, LEASE)).isInstanceOf(NothingToDo.class);
    assertThat(jobs.claim(UUID.randomUUID(), LEASE)).isInstanceOf(NothingToDo.class);
    assertThat(jobs.find(id).orElseThrow().state()).isEqualTo(State.DONE);
  }

  @Test
  void ofConcurrentClaimsExactlyOneWins() throws Exception {
    UUID id = dropped("t", "s3://bucket/wh/t");

    List<Race.Outcome<ClaimResult<PurgeJob>>> outcomes = Race.run(4, i -> jobs.claim(id, LEASE));

    assertThat(outcomes).allMatch(outcome -> outcome.failure() == null);
    assertThat(outcomes).filteredOn(outcome -> outcome.result() instanceof Claim).hasSize(1);
    assertThat(outcomes).filteredOn(outcome -> outcome.result() instanceof Busy).hasSize(3);
  }

  @Test
  void anExpiredClaimIsTakenOverAndTheOldOneCanChangeNothing() {
    UUID id = dropped("t", "s3://bucket/wh/t");
    Claim<PurgeJob> stale = (Claim<PurgeJob>) jobs.claim(id, EXPIRED);

    Claim<PurgeJob> taken = (Claim<PurgeJob>) jobs.claim(id, LEASE);

    assertThat(taken.job().lastError()).isEqualTo(PurgeJobs.ABANDONED);
    assertThat(jobs.checkpoint(stale, new Checkpoint(Phase.LOCATION, "k", 1, 0), List.of()))
        .isFalse();
    assertThat(jobs.finish(stale)).isFalse();
    assertThat(jobs.find(id).orElseThrow().phase()).isEqualTo(Phase.REACHABLE);
    assertThat(jobs.checkpoint(taken, new Checkpoint(Phase.OUTSIDE, null, 0, 0), List.of()))
        .isTrue();
  }

  @Test
  void checkpointsAddUpAndNoteEachOutsideFileOnce() {
    UUID id = dropped("t", "s3://bucket/wh/t");
    Claim<PurgeJob> claim = (Claim<PurgeJob>) jobs.claim(id, LEASE);

    jobs.checkpoint(
        claim, new Checkpoint(Phase.REACHABLE, "m1", 0, 0), List.of("s3://o/c", "s3://o/a"));
    jobs.checkpoint(
        claim, new Checkpoint(Phase.OUTSIDE, null, 3, 2), List.of("s3://o/b", "s3://o/a"));
    jobs.checkpoint(claim, new Checkpoint(Phase.LOCATION, "key", 4, 0), List.of());

    PurgeJob job = jobs.find(id).orElseThrow();
    assertThat(job.phase()).isEqualTo(Phase.LOCATION);
    assertThat(job.resumeAt()).isEqualTo("key");
    assertThat(job.deletedFiles()).isEqualTo(7);
    assertThat(job.skippedFiles()).isEqualTo(2);
    assertThat(jobs.countOutsideFiles(id)).isEqualTo(3);
    assertThat(jobs.outsideFiles(id, null, 2)).containsExactly("s3://o/a", "s3://o/b");
    assertThat(jobs.outsideFiles(id, "s3://o/b", 2)).containsExactly("s3://o/c");
  }

  @Test
  void aFailureWaitsForRedeliveryUntilTheLastReceive() {
    UUID id = dropped("t", "s3://bucket/wh/t");

    jobs.fail((Claim<PurgeJob>) jobs.claim(id, LEASE), "boom", false);
    assertThat(jobs.find(id).orElseThrow().state()).isEqualTo(State.QUEUED);
    jobs.fail((Claim<PurgeJob>) jobs.claim(id, LEASE), "boom again", true);
    PurgeJob failed = jobs.find(id).orElseThrow();
    assertThat(failed.state()).isEqualTo(State.FAILED);
    assertThat(failed.lastError()).isEqualTo("boom again");

    // a redriven message claims a failed job again
    assertThat(jobs.claim(id, LEASE)).isInstanceOf(Claim.class);
  }

  @Test
  void listingPagesNewestFirstAndFiltersByState() {
    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(dropped("t" + i, "s3://bucket/wh/t" + i));
    }
    jobs.finish((Claim<PurgeJob>) jobs.claim(ids.get(2), LEASE));
    List<UUID> newestFirst =
        ids.stream()
            .map(id -> jobs.find(id).orElseThrow())
            .sorted(
                // PostgreSQL orders uuids by their bytes, as their text sorts
                Comparator.comparing(PurgeJob::createdAt)
                    .thenComparing(job -> job.id().toString())
                    .reversed())
            .map(PurgeJob::id)
            .toList();

    List<UUID> listed = new ArrayList<>();
    String token = null;
    do {
      Page<PurgeJob> page = jobs.list("r", warehouse.id(), null, token, 2);
      assertThat(page.items()).hasSizeLessThanOrEqualTo(2);
      page.items().forEach(job -> listed.add(job.id()));
      token = page.nextPageToken();
    } while (token != null);

    assertThat(listed).isEqualTo(newestFirst);
    assertThat(jobs.list("r", warehouse.id(), State.DONE, null, 10).items())
        .extracting(PurgeJob::id)
        .containsExactly(ids.get(2));
    assertThat(jobs.list("other", warehouse.id(), null, null, 10).items()).isEmpty();
    assertThatThrownBy(() -> jobs.list("r", warehouse.id(), null, Page.tokenAfter("x"), 2))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void theSweepResendsUnsentJobsAndFailsAbandonedOnes() {
    UUID unsent = dropped("a", "s3://bucket/wh/a");
    UUID sent = dropped("b", "s3://bucket/wh/b");
    UUID abandoned = dropped("c", "s3://bucket/wh/c");
    jobs.markSent(sent);
    jobs.markSent(abandoned);
    jobs.claim(abandoned, EXPIRED);

    assertThat(jobs.toResend(EXPIRED, Duration.ofHours(1), 10)).containsExactly(unsent);
    assertThat(jobs.failAbandoned(Duration.ZERO)).isEqualTo(1);
    PurgeJob failed = jobs.find(abandoned).orElseThrow();
    assertThat(failed.state()).isEqualTo(State.FAILED);
    assertThat(failed.lastError()).isEqualTo(PurgeJobs.ABANDONED);

    assertThat(jobs.requeueUnfinished()).isEqualTo(2);
    assertThat(jobs.toResend(EXPIRED, Duration.ofHours(1), 10)).containsExactly(unsent, sent);
  }

  @Test
  void liveObjectGuardsMatchLocationsLiterally() {
    live("t", "s3://bucket/wh/x/t");
    live("u", "s3://bucket/wh/a_b");

    assertThat(jobs.liveObjectsWithin("s3://bucket/wh/x/")).containsExactly("s3://bucket/wh/x/t");
    assertThat(jobs.liveObjectsWithin("s3://bucket/wh/x/t")).containsExactly("s3://bucket/wh/x/t");
    assertThat(jobs.liveObjectsWithin("s3://bucket/wh/x/t/data")).isEmpty();
    // % and _ are no wildcards
    assertThat(jobs.liveObjectsWithin("s3://bucket/wh/%")).isEmpty();
    assertThat(jobs.liveObjectsWithin("s3://bucket/wh/a_")).isEmpty();
    assertThat(jobs.liveObjectsWithin("s3://bucket/wh/a%b")).isEmpty();

    assertThat(
            jobs.insideLiveObjects(
                List.of(
                    "s3://bucket/wh/x/t/data/f.parquet",
                    "s3://bucket/wh/x/t2/f.parquet",
                    "s3://bucket/wh/x/f.parquet")))
        .containsExactly("s3://bucket/wh/x/t/data/f.parquet");
  }
}
