package dev.puddle.local;

/**
 * {@link BadInputTest} with the metastore reached through the RDS Data API: the same cases, the
 * same answers, and the same metastore left unchanged, over the Data API adapter, the real SDK
 * client and a test endpoint in front of PostgreSQL.
 */
class DataApiBadInputTest extends BadInputTest {
  @Override
  protected TestTwin twin() {
    return TestTwin.of(TestTwin.Mode.DATA_API);
  }
}
