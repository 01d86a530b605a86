package dev.puddle.local;

import java.util.Map;

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

  /** The Data API twin's own metastore, which no suite fills with large tables. */
  @Override
  protected Target target() {
    return new Target(twin().warehouse("bad-input", Map.of()), twin().local().database());
  }
}
