package dev.puddle.local;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * A request that finds the Aurora cluster paused waits for it to resume: the Data API's {@code
 * DatabaseResumingException} is retried inside the request, and the engine sees only a slower
 * answer.
 */
class DataApiResumeTest {
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));

  @Test
  void aRequestThatFindsTheClusterResumingWaitsForIt() throws Exception {
    TestTwin twin = TestTwin.of(TestTwin.Mode.DATA_API);
    TableIdentifier id = TableIdentifier.of(Namespace.of("sleepy"), "t");
    try (RESTCatalog catalog = twin.catalog(twin.warehouse("resume", Map.of()), Map.of())) {
      catalog.createNamespace(id.namespace());
      catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned());
      long before = twin.dataApi().totalCalls();

      twin.dataApi().resumeAfter(3);
      assertThat(catalog.loadTable(id).schema().asStruct()).isEqualTo(SCHEMA.asStruct());
      assertThat(twin.dataApi().refusalsLeft()).as("every refused call was waited out").isZero();

      // three refused calls, then at least the load's statement (the caller's access and the
      // table; the shared twin may also reread keys or a cached warehouse it holds for a while)
      assertThat(twin.dataApi().totalCalls() - before).isGreaterThanOrEqualTo(4);
    }
  }
}
