package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.contract.Route;
import dev.puddle.functions.CatalogHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lambda returns at most 6 MB from a synchronous invocation, but a table's metadata JSON can be far
 * larger: a table with 20 MB of metadata (thousands of snapshots with long summaries) still
 * registers and loads, through the handler and through Iceberg's own client over the local twin,
 * because the response is gzipped for clients that accept it.
 */
class BigMetadataTest {
  private static final int SNAPSHOTS = 12_000;
  private static final Map<String, String> GZIP = Map.of("accept-encoding", "gzip, deflate");

  private static String warehouse;
  private static String metadataLocation;
  private static CatalogHandler handler;

  @BeforeAll
  static void writeTwentyMegabytesOfMetadata() throws IOException {
    warehouse = TestTwin.newWarehouse("big");
    handler = new CatalogHandler(TestTwin.rootApi(warehouse).build());
    String location = "s3://" + LocalTwin.BUCKET + "/" + warehouse + "/big/events";
    metadataLocation = location + "/metadata/00000-" + UUID.randomUUID() + ".metadata.json";
    byte[] json = metadataJson(location).getBytes(StandardCharsets.UTF_8);
    assertThat(json.length).isGreaterThan(20_000_000);
    try (OutputStream out =
        TestTwin.get().storage().io().newOutputFile(metadataLocation).createOrOverwrite()) {
      out.write(json);
    }
    expect(
        Invocations.invoke(
            handler,
            Invocations.event(
                Route.CREATE_NAMESPACE,
                Map.of("prefix", warehouse),
                "{\"namespace\":[\"big\"]}",
                Map.of()),
            null),
        200);
  }

  @Test
  void itRegistersAndLoadsThroughTheHandlerGzipped() {
    Invocations.Answer registered =
        Invocations.invoke(
            handler,
            Invocations.event(
                Route.REGISTER_TABLE,
                Map.of("prefix", warehouse, "namespace", "big"),
                "{\"name\":\"events\",\"metadata-location\":\"" + metadataLocation + "\"}",
                GZIP),
            null);
    expect(registered, 200);

    Invocations.Answer loaded =
        Invocations.invoke(
            handler,
            Invocations.event(
                Route.LOAD_TABLE,
                Map.of("prefix", warehouse, "namespace", "big", "table", "events"),
                null,
                GZIP),
            null);

    expect(loaded, 200);
    assertThat(loaded.base64()).isTrue();
    assertThat(loaded.headers()).containsEntry("content-encoding", "gzip");
    assertThat(loaded.body().length()).isGreaterThan(20_000_000);
    assertThat(loaded.json().at("/metadata/snapshots").size()).isEqualTo(SNAPSHOTS);

    Invocations.Answer plain =
        Invocations.invoke(
            handler,
            Invocations.event(
                Route.LOAD_TABLE,
                Map.of("prefix", warehouse, "namespace", "big", "table", "events"),
                null,
                Map.of()),
            null);
    assertThat(plain.status()).isEqualTo(500);
    assertThat(plain.errorType()).isEqualTo("ResponseTooLargeException");
  }

  @Test
  void icebergsClientLoadsItThroughTheTwin() throws IOException {
    TableIdentifier id = TableIdentifier.of(Namespace.of("big"), "events_via_twin");
    try (RESTCatalog client = TestTwin.restCatalog(warehouse, Map.of())) {
      client.registerTable(id, metadataLocation);

      Table table = client.loadTable(id);

      assertThat(table.snapshots()).hasSize(SNAPSHOTS);
      assertThat(table.currentSnapshot().snapshotId()).isEqualTo(SNAPSHOTS);
    }
  }

  private static void expect(Invocations.Answer answer, int status) {
    assertThat(answer.status()).as("%s", answer.body()).isEqualTo(status);
  }

  /** Version 2 table metadata with a long history of appends, as a busy streaming table has. */
  private static String metadataJson(String location) {
    StringBuilder json = new StringBuilder(24_000_000);
    long start = 1_700_000_000_000L;
    json.append("{\"format-version\":2,\"table-uuid\":\"")
        .append(UUID.randomUUID())
        .append("\",\"location\":\"")
        .append(location)
        .append("\",\"last-sequence-number\":")
        .append(SNAPSHOTS)
        .append(",\"last-updated-ms\":")
        .append(start + SNAPSHOTS * 1000L)
        .append(",\"last-column-id\":2,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\",")
        .append("\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,")
        .append("\"type\":\"long\"},{\"id\":2,\"name\":\"payload\",\"required\":false,")
        .append(
            "\"type\":\"string\"}]}],\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,")
        .append("\"fields\":[]}],\"last-partition-id\":999,\"default-sort-order-id\":0,")
        .append("\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{},")
        .append("\"current-snapshot-id\":")
        .append(SNAPSHOTS)
        .append(",\"refs\":{\"main\":{\"snapshot-id\":")
        .append(SNAPSHOTS)
        .append(",\"type\":\"branch\"}},\"snapshots\":[");
    for (int i = 1; i <= SNAPSHOTS; i++) {
      if (i > 1) {
        json.append(',');
      }
      long time = start + i * 1000L;
      json.append("{\"sequence-number\":").append(i).append(",\"snapshot-id\":").append(i);
      if (i > 1) {
        json.append(",\"parent-snapshot-id\":").append(i - 1);
      }
      json.append(",\"timestamp-ms\":")
          .append(time)
          .append(",\"summary\":{\"operation\":\"append\",\"added-data-files\":\"1\",")
          .append("\"added-records\":\"1000\",\"added-files-size\":\"123456\",")
          .append("\"total-data-files\":\"")
          .append(i)
          .append("\",\"total-records\":\"")
          .append(i * 1000L)
          .append("\",\"flink.job-id\":\"")
          .append(UUID.nameUUIDFromBytes(Integer.toString(i).getBytes(StandardCharsets.UTF_8)))
          .append("\",\"spark.app.id\":\"")
          .append("local-".repeat(200))
          .append(i)
          .append("\"},\"manifest-list\":\"")
          .append(location)
          .append("/metadata/snap-")
          .append(i)
          .append("-1-")
          .append(UUID.nameUUIDFromBytes(Long.toString(time).getBytes(StandardCharsets.UTF_8)))
          .append(".avro\",\"schema-id\":0}");
    }
    json.append("],\"statistics\":[],\"snapshot-log\":[");
    for (int i = 1; i <= SNAPSHOTS; i++) {
      json.append(i > 1 ? "," : "")
          .append("{\"timestamp-ms\":")
          .append(start + i * 1000L)
          .append(",\"snapshot-id\":")
          .append(i)
          .append('}');
    }
    return json.append("],\"metadata-log\":[]}").toString();
  }
}
