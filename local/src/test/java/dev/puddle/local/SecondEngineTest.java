package dev.puddle.local;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The second-engine scenario end to end, as two engines see it over HTTP with real tokens: root,
 * the writer, sets up through the management API a principal for a second engine that may read one
 * namespace. That engine signs in with its own credential (client credentials at the twin's token
 * endpoint), loads the table state the writer committed, cannot commit, cannot see the other
 * namespace, and loses its access on the request after its grant is revoked.
 */
class SecondEngineTest {
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));
  private static final Namespace SALES = Namespace.of("sales");
  private static final Namespace HR = Namespace.of("hr");
  private static final TableIdentifier ORDERS = TableIdentifier.of(SALES, "orders");
  private static final TableIdentifier SALARIES = TableIdentifier.of(HR, "salaries");

  @Test
  void aReaderOfOneNamespaceSeesTheWritersStateAndNothingElse() throws Exception {
    String warehouse = TestTwin.newWarehouse("second-engine");
    String suffix = Integer.toString(NAMES.incrementAndGet());
    try (RESTCatalog writer = TestTwin.restCatalog(warehouse, Map.of())) {
      writer.createNamespace(SALES);
      writer.createNamespace(HR);
      Table orders = writer.createTable(ORDERS, SCHEMA, PartitionSpec.unpartitioned());
      orders.newAppend().appendFile(dataFile(orders, "a")).commit();
      writer.createTable(SALARIES, SCHEMA, PartitionSpec.unpartitioned());
      long committed = writer.loadTable(ORDERS).currentSnapshot().snapshotId();

      String principal = "bi-" + suffix;
      String principalRole = "bi_readers_" + suffix;
      String catalogRole = "sales_reader";
      String grant =
          "{\"grant\":{\"type\":\"namespace\",\"namespace\":[\"sales\"],"
              + "\"privilege\":\"TABLE_READ_DATA\"}}";
      JsonNode created =
          admin("POST", "/admin/v1/principals", "{\"principal\":{\"name\":\"" + principal + "\"}}");
      String credential =
          created.at("/credentials/clientId").asText()
              + ":"
              + created.at("/credentials/clientSecret").asText();
      admin(
          "POST",
          "/admin/v1/principal-roles",
          "{\"principalRole\":{\"name\":\"" + principalRole + "\"}}");
      admin(
          "PUT",
          "/admin/v1/principals/" + principal + "/principal-roles",
          "{\"principalRole\":{\"name\":\"" + principalRole + "\"}}");
      admin(
          "POST",
          "/admin/v1/warehouses/" + warehouse + "/catalog-roles",
          "{\"catalogRole\":{\"name\":\"" + catalogRole + "\"}}");
      admin(
          "PUT",
          "/admin/v1/principal-roles/" + principalRole + "/catalog-roles/" + warehouse,
          "{\"catalogRole\":{\"name\":\"" + catalogRole + "\"}}");
      String grants = "/admin/v1/warehouses/" + warehouse + "/catalog-roles/" + catalogRole;
      admin("PUT", grants + "/grants", grant);

      try (RESTCatalog reader = engine(warehouse, credential)) {
        Table seen = reader.loadTable(ORDERS);
        assertThat(seen.currentSnapshot().snapshotId()).isEqualTo(committed);
        assertThat(reader.listNamespaces()).containsExactly(SALES);
        assertThat(reader.listTables(SALES)).containsExactly(ORDERS);
        assertThatThrownBy(() -> seen.newAppend().appendFile(dataFile(seen, "b")).commit())
            .isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() -> reader.loadTable(SALARIES)).isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() -> reader.listTables(HR)).isInstanceOf(ForbiddenException.class);
        assertThat(writer.loadTable(ORDERS).currentSnapshot().snapshotId())
            .as("the refused commit changed nothing")
            .isEqualTo(committed);

        // revoking is a POST of the grant, as in Polaris; the very next request is refused
        admin("POST", grants + "/grants", grant);
        assertThatThrownBy(() -> reader.loadTable(ORDERS)).isInstanceOf(ForbiddenException.class);
      }
    }
  }

  @Test
  void aWrongSecretGetsNoToken() {
    String warehouse = TestTwin.newWarehouse("second-engine");
    assertThatThrownBy(() -> engine(warehouse, TestTwin.ROOT.clientId() + ":not-the-secret"))
        .isInstanceOf(NotAuthorizedException.class);
  }

  /** A second engine: Iceberg's client signed in with its own credential. */
  private static RESTCatalog engine(String warehouse, String credential) {
    return TestTwin.client(
        TestTwin.get().uri(),
        warehouse,
        Map.of(
            OAuth2Properties.CREDENTIAL, credential, OAuth2Properties.SCOPE, "PRINCIPAL_ROLE:ALL"));
  }

  /** A management API call as root, which must succeed; its JSON answer, if any. */
  private static JsonNode admin(String method, String path, String body) {
    return TwinHttp.root().ok(method, path, body);
  }

  private static DataFile dataFile(Table table, String name) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }
}
