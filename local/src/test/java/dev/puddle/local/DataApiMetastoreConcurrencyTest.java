package dev.puddle.local;

/**
 * The metastore's concurrency invariants with the metastore reached through the RDS Data API: row
 * locks, advisory locks and compare-and-swap hold across Data API transactions as they do across
 * JDBC connections.
 */
class DataApiMetastoreConcurrencyTest extends MetastoreConcurrencyTest {
  @Override
  protected TestTwin twin() {
    return TestTwin.of(TestTwin.Mode.DATA_API);
  }
}
