package dev.puddle.local;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.maintenance.BackgroundWork;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.MaintenanceJob;
import dev.puddle.core.metastore.MaintenanceJob.State;
import dev.puddle.core.metastore.MaintenanceJob.Trigger;
import dev.puddle.core.metastore.MaintenanceJobs;
import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeMessage;
import dev.puddle.core.purge.PurgeProcessor;
import dev.puddle.local.OperationCostTest.S3Kind;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The case: a table of 1,000 snapshots, each an overwrite of the previous one's ten data
 * files, expired down to 10 snapshots in one maintenance run (purge function time, 15 minutes). S3
 * requests by kind, counted on the wire in front of the twin's S3 server, and wall time. Prints its
 * numbers; asserts only that the run finished and deleted what its counts say.
 *
 * <p>A benchmark, not a test: excluded from {@code ./mvnw verify}. Run it with
 *
 * <pre>
 * ./mvnw -B -pl local -am test -Dtest=MaintenanceBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dgroups=benchmark -Dpuddle.excludedGroups=
 * </pre>
 */
@Tag("benchmark")
class MaintenanceBenchmark {
  private static final int SNAPSHOTS = 1_000;
  private static final int FILES_PER_SNAPSHOT = 10;
  private static final int KEEP = 10;
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));
  private static final Namespace NAMESPACE = Namespace.of("bench");

  @Test
  void expiringNineHundredNinetySnapshotsAndTheirFiles() throws Exception {
    LocalTwin twin = TestTwin.get();
    String warehouse = TestTwin.newWarehouse("maintenance-bench");
    try (RESTCatalog catalog = TestTwin.restCatalog(warehouse, Map.of());
        CountedS3 s3 = CountedS3.start(twin)) {
      catalog.createNamespace(NAMESPACE);
      TableIdentifier id = TableIdentifier.of(NAMESPACE, "events");
      Table table = catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned());
      List<String> paths = new ArrayList<>();
      for (int i = 0; i < SNAPSHOTS * FILES_PER_SNAPSHOT; i++) {
        paths.add(table.locationProvider().newDataLocation(String.format("part-%05d.parquet", i)));
      }
      StorageObjects.putAll(s3.direct(), paths, "x");
      List<DataFile> previous = List.of();
      for (int s = 0; s < SNAPSHOTS; s++) {
        List<DataFile> files = new ArrayList<>();
        for (String path : paths.subList(s * FILES_PER_SNAPSHOT, (s + 1) * FILES_PER_SNAPSHOT)) {
          files.add(
              DataFiles.builder(PartitionSpec.unpartitioned())
                  .withPath(path)
                  .withFileSizeInBytes(10)
                  .withRecordCount(1)
                  .build());
        }
        OverwriteFiles overwrite = table.newOverwrite();
        previous.forEach(overwrite::deleteFile);
        files.forEach(overwrite::addFile);
        overwrite.commit();
        previous = files;
      }
      // the run is measured here, not started by this commit on the twin's queue
      table
          .updateProperties()
          .set(MaintenanceOutbox.COMMIT_TRIGGER_SNAPSHOTS, Integer.toString(Integer.MAX_VALUE))
          .set(TableProperties.MIN_SNAPSHOTS_TO_KEEP, Integer.toString(KEEP))
          .set(TableProperties.MAX_SNAPSHOT_AGE_MS, "1")
          .commit();

      MaintenanceJobs jobs = new MaintenanceJobs(twin.database());
      UUID job = jobs.start(PurgeFunction.tableId(warehouse, id), Trigger.REQUEST).orElseThrow();
      PurgeProcessor processor =
          new BackgroundWork(twin.database())
              .processor(
                  s3.storage().io(),
                  new S3Objects(s3.client()),
                  (kind, sent, delay) -> {
                    throw new AssertionError("The run did not fit one invocation");
                  },
                  1,
                  Clock.systemUTC());
      s3.clear();
      long start = System.nanoTime();
      List<String> failed =
          processor.process(
              List.of(
                  new PurgeProcessor.Delivery(
                      "bench", PurgeMessage.body(JobKind.MAINTENANCE, job), 1)),
              Deadline.in(Duration.ofMinutes(15)));
      long nanos = System.nanoTime() - start;
      Map<S3Kind, Integer> requests = s3.byKind();
      MaintenanceJob done = jobs.find(job).orElseThrow();
      assertThat(failed).isEmpty();
      assertThat(done.state()).as("%s", done).isEqualTo(State.DONE);
      assertThat(catalog.loadTable(id).snapshots()).hasSize(KEEP);

      MaintenanceJob.Counts counts = done.counts();
      int deletes = requests.getOrDefault(S3Kind.DELETE, 0);
      System.out.printf(
          "%nMaintenance of a table of %,d snapshots of %d data files each, expired to %d%n",
          SNAPSHOTS, FILES_PER_SNAPSHOT, KEEP);
      System.out.printf(
          "  one run: %d ms; %,d snapshots expired; deleted %,d data files, %,d manifests,"
              + " %,d manifest lists (%,d files)%n",
          nanos / 1_000_000,
          counts.snapshotsExpired(),
          counts.dataFiles(),
          counts.manifests(),
          counts.manifestLists(),
          counts.files());
      System.out.printf("  S3 requests %s%n", requests);
      System.out.printf(
          "  DeleteObjects per 10,000 deleted files: %.1f (goal: at most 11)%n%n",
          deletes * 10_000.0 / counts.files());
    }
  }
}
