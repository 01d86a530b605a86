package dev.puddle.local;

/**
 * Apache Iceberg's own view catalog conformance suite with the metastore reached through the RDS
 * Data API: the same catalog and metastore code as {@link ViewConformanceTest}, over the Data API
 * adapter, the real SDK client and a test endpoint in front of PostgreSQL.
 */
class DataApiViewConformanceTest extends ViewConformanceTest {
  @Override
  protected TestTwin twin() {
    return TestTwin.of(TestTwin.Mode.DATA_API);
  }
}
