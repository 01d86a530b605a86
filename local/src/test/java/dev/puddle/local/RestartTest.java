package dev.puddle.local;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.collect.ImmutableMap;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local twin restarted on the same data directory serves exactly what was committed before it
 * stopped: PostgreSQL and S3 both keep their data there, so namespaces, metadata pointers,
 * snapshots and the files they reference survive, and commits continue from them.
 *
 * <p>Runs its own twin, not the shared one, since it stops it.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RestartTest {
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));
  private static final Namespace NAMESPACE = Namespace.of("durable");
  private static final Map<String, String> NAMESPACE_PROPERTIES =
      ImmutableMap.of("owner", "puddle");
  private static final TableIdentifier TABLE = TableIdentifier.of(NAMESPACE, "events");

  @TempDir Path data;

  @Test
  void committedStateSurvivesRestartAndCommitsContinueFromIt() {
    TableMetadata before =
        withTwin(
            catalog -> {
              catalog.createNamespace(NAMESPACE, NAMESPACE_PROPERTIES);
              Table table = catalog.createTable(TABLE, SCHEMA, PartitionSpec.unpartitioned());
              table.newFastAppend().appendFile(dataFile("before-restart")).commit();
              return metadata(catalog.loadTable(TABLE));
            });

    TableMetadata afterCommit =
        withTwin(
            catalog -> {
              assertThat(catalog.loadNamespaceMetadata(NAMESPACE))
                  .containsAllEntriesOf(NAMESPACE_PROPERTIES);
              Table table = catalog.loadTable(TABLE);
              TableMetadata loaded = metadata(table);
              assertThat(loaded.metadataFileLocation()).isEqualTo(before.metadataFileLocation());
              assertThat(loaded.previousFiles()).isEqualTo(before.previousFiles());
              assertThat(loaded.currentSnapshot().snapshotId())
                  .isEqualTo(before.currentSnapshot().snapshotId());
              // planning reads the manifest list and the manifests back from S3
              assertThat(dataFiles(table)).containsExactly(dataFile("before-restart").location());

              table.newFastAppend().appendFile(dataFile("after-restart")).commit();

              Table reloaded = catalog.loadTable(TABLE);
              assertThat(dataFiles(reloaded))
                  .containsExactlyInAnyOrder(
                      dataFile("before-restart").location(), dataFile("after-restart").location());
              return metadata(reloaded);
            });

    assertThat(afterCommit.currentSnapshot().parentId())
        .isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(afterCommit.previousFiles())
        .extracting(TableMetadata.MetadataLogEntry::file)
        .contains(before.metadataFileLocation());
  }

  /**
   * Starts a twin on the test's data directory (on free ports, so they differ from one start to the
   * next), runs work with Iceberg's REST client against it, and stops the twin.
   */
  private <T> T withTwin(Function<RESTCatalog, T> work) {
    LocalTwin twin =
        LocalTwin.start(
            new LocalTwin.Options(
                data, "127.0.0.1", 0, 0, 0, 0, LocalPurge.Options.DEFAULTS, TestTwin.ROOT));
    RESTCatalog catalog = new RESTCatalog();
    try {
      Map<String, String> properties = new HashMap<>(twin.clientProperties());
      properties.put(
          OAuth2Properties.CREDENTIAL,
          TestTwin.ROOT.clientId() + ":" + TestTwin.ROOT.clientSecret());
      catalog.initialize("restart", properties);
      return work.apply(catalog);
    } finally {
      close(catalog);
      twin.close();
    }
  }

  /** A data file that exists in metadata only, as in Iceberg's own catalog tests. */
  private static DataFile dataFile(String name) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("s3://" + LocalTwin.BUCKET + "/data/" + name + ".parquet")
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }

  private static TableMetadata metadata(Table table) {
    return ((HasTableOperations) table).operations().current();
  }

  private static void close(RESTCatalog catalog) {
    try {
      catalog.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> dataFiles(Table table) {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      return StreamSupport.stream(tasks.spliterator(), false)
          .map(task -> task.file().location())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
