package dev.puddle.local;

/** {@link HttpFrontErrorsTest} with the metastore reached through the RDS Data API. */
class DataApiHttpFrontErrorsTest extends HttpFrontErrorsTest {
  @Override
  protected TestTwin twin() {
    return TestTwin.of(TestTwin.Mode.DATA_API);
  }
}
