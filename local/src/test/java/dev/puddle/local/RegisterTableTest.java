package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Registering tables from existing metadata files, including the REST spec's {@code overwrite},
 * which points an existing table at the registered metadata.
 */
class RegisterTableTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Namespace NS = Namespace.of("ns");

  private RESTCatalog catalog;

  @BeforeEach
  void setUp() {
    catalog = TestTwin.restCatalog(TestTwin.newWarehouse("register"), Map.of());
    catalog.createNamespace(NS);
  }

  @AfterEach
  void tearDown() throws Exception {
    catalog.close();
  }

  @Test
  void overwritePointsTheExistingTableAtTheRegisteredMetadata() {
    Table source = catalog.createTable(TableIdentifier.of(NS, "source"), SCHEMA);
    source.newAppend().appendFile(dataFile(source, "a.parquet")).commit();
    String sourceMetadata = metadataLocation(catalog.loadTable(TableIdentifier.of(NS, "source")));
    TableIdentifier target = TableIdentifier.of(NS, "target");
    catalog.createTable(target, SCHEMA);

    catalog.registerTable(target, sourceMetadata, true);

    Table overwritten = catalog.loadTable(target);
    assertThat(metadataLocation(overwritten)).isEqualTo(sourceMetadata);
    assertThat(overwritten.currentSnapshot().snapshotId())
        .isEqualTo(source.currentSnapshot().snapshotId());
  }

  @Test
  void registeringOverAnExistingTableWithoutOverwriteFails() {
    Table source = catalog.createTable(TableIdentifier.of(NS, "source"), SCHEMA);
    TableIdentifier target = TableIdentifier.of(NS, "target");
    Table existing = catalog.createTable(target, SCHEMA);

    assertThatThrownBy(() -> catalog.registerTable(target, metadataLocation(source)))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("Table already exists: ns.target");
    assertThat(metadataLocation(catalog.loadTable(target))).isEqualTo(metadataLocation(existing));
  }

  @Test
  void registeringAMissingMetadataFileFailsAndCreatesNothing() {
    TableIdentifier target = TableIdentifier.of(NS, "target");
    String missing = "s3://" + LocalTwin.BUCKET + "/nowhere/metadata/00000-x.metadata.json";

    assertThatThrownBy(() -> catalog.registerTable(target, missing))
        .isInstanceOf(NotFoundException.class);
    assertThat(catalog.tableExists(target)).isFalse();
  }

  private static String metadataLocation(Table table) {
    return ((org.apache.iceberg.HasTableOperations) table)
        .operations()
        .current()
        .metadataFileLocation();
  }

  private static DataFile dataFile(Table table, String name) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/" + name)
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }
}
