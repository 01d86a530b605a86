package dev.puddle.local;

import static dev.puddle.local.TableFiles.metadata;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Table loads revalidated through the twin's HTTP front, as Iceberg's Java client does them: it
 * keeps a loaded table only if the response has a header it finds by the exact name {@code ETag},
 * later sends that tag in {@code If-None-Match}, and on 304 Not Modified reuses the table it
 * parsed. A commit changes the tag, so no client is served stale metadata.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LocalTwinRevalidationTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));
  private static final Namespace SALES = Namespace.of("sales");
  private static final TableIdentifier ORDERS = TableIdentifier.of(SALES, "orders");

  @Test
  void aLoadIsTaggedAsETagAndItsTagIsAnswered304WithoutBodyUntilACommit() throws IOException {
    String warehouse = warehouseWithOrders();
    String path = "/v1/" + warehouse + "/namespaces/sales/tables/orders";
    String authorization = "Bearer " + TestTwin.rootToken();

    Exchange loaded = get(path, Map.of("Authorization", authorization));
    assertThat(loaded.status()).isEqualTo(200);
    assertThat(loaded.headers().keySet())
        .as("the tag's header name as sent")
        .filteredOn(name -> name.equalsIgnoreCase("etag"))
        .containsExactly("ETag");
    String etag = loaded.headers().get("ETag");
    String location = JSON.readTree(loaded.body()).get("metadata-location").asText();

    Exchange unchanged = get(path, Map.of("Authorization", authorization, "If-None-Match", etag));
    assertThat(unchanged.status()).isEqualTo(304);
    assertThat(unchanged.body()).isEmpty();
    assertThat(unchanged.headers()).containsEntry("ETag", etag);

    try (RESTCatalog writer = TestTwin.restCatalog(warehouse, Map.of())) {
      append(writer.loadTable(ORDERS));
    }
    Exchange changed = get(path, Map.of("Authorization", authorization, "If-None-Match", etag));
    assertThat(changed.status()).isEqualTo(200);
    assertThat(changed.headers().get("ETag")).isNotBlank().isNotEqualTo(etag);
    assertThat(JSON.readTree(changed.body()).get("metadata-location").asText())
        .isNotEqualTo(location);
  }

  @Test
  void icebergsClientReusesItsTableUntilAnotherClientCommits() throws IOException {
    String warehouse = warehouseWithOrders();
    try (RESTCatalog reader = TestTwin.restCatalog(warehouse, Map.of());
        RESTCatalog writer = TestTwin.restCatalog(warehouse, Map.of())) {
      TableMetadata parsed = metadata(reader.loadTable(ORDERS));
      assertThat(metadata(reader.loadTable(ORDERS)))
          .as("the client keeps the table it parsed only when answered 304 Not Modified")
          .isSameAs(parsed);

      long committed = append(writer.loadTable(ORDERS));

      TableMetadata reloaded = metadata(reader.loadTable(ORDERS));
      assertThat(reloaded).isNotSameAs(parsed);
      assertThat(reloaded.currentSnapshot().snapshotId()).isEqualTo(committed);
      assertThat(metadata(reader.loadTable(ORDERS))).isSameAs(reloaded);
    }
  }

  private static String warehouseWithOrders() throws IOException {
    String warehouse = TestTwin.newWarehouse("revalidation");
    try (RESTCatalog catalog = TestTwin.restCatalog(warehouse, Map.of())) {
      catalog.createNamespace(SALES);
      catalog.createTable(ORDERS, SCHEMA);
    }
    return warehouse;
  }

  /** Appends a data file and returns the new snapshot's id. */
  private static long append(Table table) {
    table
        .newAppend()
        .appendFile(
            DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/a.parquet")
                .withFileSizeInBytes(10)
                .withRecordCount(1)
                .build())
        .commit();
    return table.currentSnapshot().snapshotId();
  }

  /** A response as it came over the wire: header names spelled as sent. */
  private record Exchange(int status, Map<String, String> headers, String body) {}

  /** A GET on a connection of its own, read byte for byte rather than through an HTTP client. */
  private static Exchange get(String path, Map<String, String> headers) throws IOException {
    URI twin = URI.create(TestTwin.get().uri());
    StringBuilder request = new StringBuilder();
    request.append("GET ").append(path).append(" HTTP/1.1\r\n");
    request.append("Host: ").append(twin.getAuthority()).append("\r\n");
    request.append("Connection: close\r\n");
    headers.forEach(
        (name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
    request.append("\r\n");
    String response;
    try (Socket socket = new Socket(twin.getHost(), twin.getPort())) {
      socket.setSoTimeout(30_000);
      socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.US_ASCII));
      response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
    int end = response.indexOf("\r\n\r\n");
    String[] lines = response.substring(0, end).split("\r\n");
    Map<String, String> fields = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      fields.put(lines[i].substring(0, colon), lines[i].substring(colon + 1).strip());
    }
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    return new Exchange(status, fields, response.substring(end + 4));
  }
}
