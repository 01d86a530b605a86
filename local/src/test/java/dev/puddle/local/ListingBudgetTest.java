package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * A listing without {@code pageSize} answers entries up to the response budget (4 MB of JSON, under
 * Lambda's 6 MB response limit) and then a token, which Iceberg's client follows to the end.
 */
class ListingBudgetTest {
  private static final int COPIES = 20_000;
  private static final int NAME_LENGTH = 200;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aListingBeyondTheBudgetEndsWithATokenAndTheClientStillGetsEveryTable() throws Exception {
    String warehouse = TestTwin.newWarehouse("budget");
    Namespace namespace = Namespace.of("wide");
    try (RESTCatalog catalog = TestTwin.restCatalog(warehouse, Map.of())) {
      catalog.createNamespace(namespace);
      catalog.createTable(
          TableIdentifier.of(namespace, "t"),
          new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
      // copies of that table's row with long names: about 4.7 MB of listing, more than one
      // response holds
      int copied =
          TestTwin.admin(
              "INSERT INTO catalog_object (id, warehouse_id, namespace_id, name, kind, location,"
                  + " owns_location, metadata_location, metadata)"
                  + " SELECT gen_random_uuid(), o.warehouse_id, o.namespace_id,"
                  + " lpad(i::text, "
                  + NAME_LENGTH
                  + ", 'x'), 'table', o.location || '_' || i, false, o.metadata_location,"
                  + " o.metadata FROM catalog_object o JOIN warehouse w ON w.id = o.warehouse_id,"
                  + " generate_series(1, "
                  + COPIES
                  + ") i WHERE w.realm_id = '"
                  + LocalTwin.REALM
                  + "' AND w.name = '"
                  + warehouse
                  + "' AND o.name = 't'");
      assertThat(copied).isEqualTo(COPIES);

      String firstBody = get(warehouse, "");
      assertThat(firstBody.length()).isBetween(3 * 1024 * 1024, 4 * 1024 * 1024);
      JsonNode first = JSON.readTree(firstBody);
      int firstCount = first.get("identifiers").size();
      String token = first.get("next-page-token").asText();
      JsonNode rest = JSON.readTree(get(warehouse, "?pageToken=" + token));
      assertThat(rest.path("next-page-token").isTextual()).isFalse();
      assertThat(firstCount + rest.get("identifiers").size()).isEqualTo(COPIES + 1);

      assertThat(catalog.listTables(namespace)).hasSize(COPIES + 1).doesNotHaveDuplicates();
    }
  }

  /** One raw listing of the namespace's tables, as the client sends it without a page size. */
  private static String get(String warehouse, String query) throws Exception {
    try (HttpClient client = HttpClient.newHttpClient()) {
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(
                      URI.create(
                          TestTwin.get().uri()
                              + "/v1/"
                              + warehouse
                              + "/namespaces/wide/tables"
                              + query))
                  .header("Authorization", "Bearer " + TestTwin.rootToken())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      return response.body();
    }
  }
}
