package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.CatalogTests;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Iceberg's own catalog conformance suite, run with Iceberg's {@link RESTCatalog} client
 * against the local twin: HTTP, the API Gateway event conversion, the Lambda handler, PostgreSQL
 * and S3, all real. Every test gets a fresh warehouse.
 */
class CatalogConformanceTest extends CatalogTests<RESTCatalog> {
  private RESTCatalog catalog;
  private String warehouse;

  /** Client-side table defaults and overrides, as Iceberg's own REST catalog tests set them. */
  private static final Map<String, String> CLIENT_PROPERTIES =
      Map.of(
          CatalogProperties.TABLE_DEFAULT_PREFIX + "default-key1", "catalog-default-key1",
          CatalogProperties.TABLE_DEFAULT_PREFIX + "default-key2", "catalog-default-key2",
          CatalogProperties.TABLE_DEFAULT_PREFIX + "override-key3", "catalog-default-key3",
          CatalogProperties.TABLE_OVERRIDE_PREFIX + "override-key3", "catalog-override-key3",
          CatalogProperties.TABLE_OVERRIDE_PREFIX + "override-key4", "catalog-override-key4");

  /** The client's properties; subclasses run the suite as another kind of engine. */
  protected Map<String, String> clientProperties() {
    return CLIENT_PROPERTIES;
  }

  /** The twin the suite runs against; subclasses run it in another metastore access mode. */
  protected TestTwin twin() {
    return TestTwin.of(TestTwin.Mode.JDBC);
  }

  @BeforeEach
  void setUp() {
    warehouse = twin().warehouse("catalog-tests", Map.of());
    catalog = twin().catalog(warehouse, clientProperties());
  }

  @AfterEach
  void tearDown() throws IOException {
    catalog.close();
  }

  @Override
  protected RESTCatalog catalog() {
    return catalog;
  }

  @Override
  protected RESTCatalog initCatalog(String catalogName, Map<String, String> additionalProperties) {
    Map<String, String> properties = new HashMap<>(clientProperties());
    properties.putAll(additionalProperties);
    return twin().catalog(warehouse, properties);
  }

  /** Tables at requested locations must lie within the warehouse. */
  @Override
  protected String baseTableLocation(TableIdentifier identifier) {
    return "s3://"
        + LocalTwin.BUCKET
        + "/"
        + warehouse
        + "/custom/"
        + identifier.namespace()
        + "/"
        + identifier.name();
  }

  @Override
  protected boolean supportsNamespaceProperties() {
    return true;
  }

  @Override
  protected boolean supportsNestedNamespaces() {
    return true;
  }

  @Override
  protected boolean requiresNamespaceCreate() {
    return true;
  }

  @Override
  protected boolean supportsServerSideRetry() {
    return true;
  }

  @Override
  protected boolean overridesRequestedLocation() {
    return false;
  }

  /**
   * Behind API Gateway a {@code /} in a name arrives decoded as a path separator, so such a name
   * could never be addressed: Puddle refuses it at creation with a 400.
   */
  @Override
  protected boolean supportsNamesWithSlashes() {
    return false;
  }

  @Override
  protected boolean supportsNamesWithDot() {
    return true;
  }

  /**
   * The REST paths address a namespace as a non-empty path segment, so the empty namespace cannot
   * be addressed through the specification's routes.
   */
  @Override
  protected boolean supportsEmptyNamespace() {
    return false;
  }

  @Test
  @Override
  public void testLoadTableWithMissingMetadataFile(@TempDir Path tempDir) {
    Assumptions.abort(
        "Moves the metadata file on a local filesystem and expects loadTable to fail; Puddle serves"
            + " loadTable from the metadata stored in PostgreSQL and never reads object storage");
  }

  /**
   * With {@code write.metadata.compression-codec=gzip} the metadata files are gzipped, while the
   * metadata stored beside the pointer and answered is the same metadata, as JSON.
   */
  @Test
  void aTableWithGzippedMetadataFilesCommitsAndLoads() {
    catalog.createNamespace(NS);
    Table table =
        catalog
            .buildTable(TABLE, SCHEMA)
            .withProperty(TableProperties.METADATA_COMPRESSION, "gzip")
            .create();
    table.newFastAppend().appendFile(FILE_A).commit();

    Table loaded = initCatalog("reader", Map.of()).loadTable(TABLE);
    TableMetadata answered = ((HasTableOperations) loaded).operations().current();
    assertThat(answered.metadataFileLocation()).endsWith(".gz.metadata.json");
    TableMetadata file = TableMetadataParser.read(loaded.io(), answered.metadataFileLocation());
    assertThat(answered.currentSnapshot().snapshotId())
        .isEqualTo(table.currentSnapshot().snapshotId())
        .isEqualTo(file.currentSnapshot().snapshotId());
    assertThat(TableMetadataParser.toJson(answered)).isEqualTo(TableMetadataParser.toJson(file));
  }
}
