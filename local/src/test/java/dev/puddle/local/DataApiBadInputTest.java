package dev.puddle.local;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.PostgresConnections;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * {@link BadInputTest} with the metastore reached through the RDS Data API: the same cases, the
 * same answers, and the same metastore left unchanged, over the Data API adapter, the real SDK
 * client and a test endpoint in front of PostgreSQL.
 */
class DataApiBadInputTest extends BadInputTest {
  private Database dumped;

  @Override
  protected TestTwin twin() {
    return TestTwin.of(TestTwin.Mode.DATA_API);
  }

  /**
   * The Data API twin's own metastore, which no suite fills with large tables. The catalog reaches
   * it through the Data API; the dumps that compare it before and after each case read the same
   * PostgreSQL over JDBC, since a dump is a request of its own and two or three per case through
   * the Data API cost several times what the case does, and tell nothing more.
   */
  @Override
  protected Target target() {
    dumped = new Database(PostgresConnections.factory(twin().local().jdbcUrl(), null, null), 1);
    return new Target(twin().warehouse("bad-input", Map.of()), twin().local().database(), dumped);
  }

  @AfterAll
  void closeDumped() {
    dumped.close();
  }
}
