package dev.puddle.local;

import java.io.IOException;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.view.ViewCatalogTests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Apache Iceberg's own view catalog conformance suite, run with Iceberg's {@link RESTCatalog}
 * client against the local twin. Every test gets a fresh warehouse.
 */
class ViewConformanceTest extends ViewCatalogTests<RESTCatalog> {
  private RESTCatalog catalog;
  private String warehouse;

  /** Server-side view defaults and overrides: catalog properties of the warehouse. */
  private static final Map<String, String> WAREHOUSE_PROPERTIES =
      Map.of(
          CatalogProperties.VIEW_DEFAULT_PREFIX + "key1", "catalog-default-key1",
          CatalogProperties.VIEW_DEFAULT_PREFIX + "key2", "catalog-default-key2",
          CatalogProperties.VIEW_DEFAULT_PREFIX + "key3", "catalog-default-key3",
          CatalogProperties.VIEW_OVERRIDE_PREFIX + "key3", "catalog-override-key3",
          CatalogProperties.VIEW_OVERRIDE_PREFIX + "key4", "catalog-override-key4");

  /** The twin the suite runs against; subclasses run it in another metastore access mode. */
  protected TestTwin twin() {
    return TestTwin.of(TestTwin.Mode.JDBC);
  }

  @BeforeEach
  void setUp() {
    warehouse = twin().warehouse("view-tests", WAREHOUSE_PROPERTIES);
    catalog = twin().catalog(warehouse, Map.of());
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
  protected Catalog tableCatalog() {
    return catalog;
  }

  /** Views at requested locations must lie within the warehouse. */
  @Override
  protected String viewLocation(String... paths) {
    return "s3://" + LocalTwin.BUCKET + "/" + warehouse + "/custom/" + String.join("/", paths);
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

  /** See {@link CatalogConformanceTest#supportsEmptyNamespace()}. */
  @Override
  protected boolean supportsEmptyNamespace() {
    return false;
  }
}
