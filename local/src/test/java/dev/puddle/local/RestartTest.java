package dev.puddle.local;

import static dev.puddle.local.TableFiles.dataFiles;
import static dev.puddle.local.TableFiles.metadata;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
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
              table.newFastAppend().appendFile(TableFiles.metadataOnly("before-restart")).commit();
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
              assertThat(dataFiles(table))
                  .containsExactly(TableFiles.metadataOnly("before-restart").location());

              table.newFastAppend().appendFile(TableFiles.metadataOnly("after-restart")).commit();

              Table reloaded = catalog.loadTable(TABLE);
              assertThat(dataFiles(reloaded))
                  .containsExactlyInAnyOrder(
                      TableFiles.metadataOnly("before-restart").location(),
                      TableFiles.metadataOnly("after-restart").location());
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

  private static void close(RESTCatalog catalog) {
    try {
      catalog.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
