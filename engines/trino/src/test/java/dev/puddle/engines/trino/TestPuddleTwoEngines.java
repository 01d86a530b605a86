package dev.puddle.engines.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.engines.twin.PuddleTwin;
import io.trino.plugin.iceberg.IcebergQueryRunner;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The product's origin story, over HTTP with real tokens: Iceberg's Java client, signed in as
 * root, writes {@code sales.orders}; Trino, signed in as {@code analyst}, a principal that root
 * created through the management API whose role holds only {@code TABLE_READ_DATA} on {@code
 * sales}, sees exactly the writer's snapshots, nothing else, and can change nothing, until the
 * grant is revoked. (Trino looks each name up as a view first: Puddle answers that lookup 404 to
 * a principal that may know the name is a table.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestPuddleTwoEngines extends AbstractTestQueryFramework {
  private static final String WAREHOUSE = "trino_shared";
  private static final String CATALOG_ROLE = "sales_reader";
  private static final String READ = "TABLE_READ_DATA";
  private static final TableIdentifier ORDERS = TableIdentifier.of("sales", "orders");
  private static final TableIdentifier PEOPLE = TableIdentifier.of("hr", "people");
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "total", Types.DoubleType.get()));

  private Management root;
  private RESTCatalog writer;
  /** The ids the writer appended to sales.orders. */
  private final List<Long> written = new ArrayList<>();

  @Override
  protected QueryRunner createQueryRunner() throws Exception {
    PuddleTwin twin = PuddleTwin.shared();
    root = Management.signIn(twin, twin.rootCredential());
    root.createWarehouse(WAREHOUSE);
    String analyst = root.createPrincipal("analyst");
    root.createPrincipalRole("analysts");
    root.assignPrincipalRole("analyst", "analysts");
    root.createCatalogRole(WAREHOUSE, CATALOG_ROLE);
    root.assignCatalogRole("analysts", WAREHOUSE, CATALOG_ROLE);
    writer = closeAfterClass(IcebergClient.catalog(twin, WAREHOUSE, twin.rootCredential()));
    writer.createNamespace(Namespace.of("sales"));
    writer.createNamespace(Namespace.of("hr"));
    root.grantOnNamespace(WAREHOUSE, CATALOG_ROLE, "sales", READ);
    append(writer.createTable(ORDERS, SCHEMA), List.of(1L, 2L));
    IcebergWriter.append(writer.createTable(PEOPLE, SCHEMA), List.of(7L));

    QueryRunner queryRunner =
        IcebergQueryRunner.builder()
            .setIcebergProperties(PuddleCatalog.withStorageKeys(twin, WAREHOUSE, analyst))
            .addIcebergProperty("fs.hadoop.enabled", "false")
            .disableSchemaInitializer()
            .build();
    return queryRunner;
  }

  private void append(Table table, List<Long> ids) {
    IcebergWriter.append(table, ids);
    written.addAll(ids);
  }

  @Test
  @Order(1)
  void theAnalystSeesTheWritersSnapshotAndRows() {
    assertSeesWritersState();
  }

  @Test
  @Order(2)
  void theAnalystSeesNothingOfOtherNamespaces() {
    // Trino's own two schemas, and of Puddle's namespaces only sales, not hr
    assertThat(computeActual("SHOW SCHEMAS FROM iceberg").getOnlyColumnAsSet())
        .isEqualTo(Set.of("information_schema", "system", "sales"));
    assertRefused("SELECT * FROM iceberg.hr.people");
  }

  @Test
  @Order(3)
  void theNextQueryAfterTheWritersAppendSeesItsSnapshot() {
    long before = writer.loadTable(ORDERS).currentSnapshot().snapshotId();
    append(writer.loadTable(ORDERS), List.of(3L));
    assertThat(writer.loadTable(ORDERS).currentSnapshot().snapshotId()).isNotEqualTo(before);
    assertSeesWritersState();
  }

  @Test
  @Order(4)
  void theAnalystsWritesAreRefusedAndChangeNothing() {
    long snapshot = writer.loadTable(ORDERS).currentSnapshot().snapshotId();
    assertRefused("INSERT INTO iceberg.sales.orders VALUES (9, 9.0)");
    assertRefused("DROP TABLE iceberg.sales.orders");
    assertRefused("CREATE TABLE iceberg.sales.mine (id bigint)");

    assertThat(writer.loadTable(ORDERS).currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(writer.tableExists(TableIdentifier.of("sales", "mine"))).isFalse();
    assertSeesWritersState();
  }

  @Test
  @Order(5)
  void afterRootRevokesTheGrantTheNextQueryIsRefused() {
    root.revokeOnNamespace(WAREHOUSE, CATALOG_ROLE, "sales", READ);
    assertRefused("SELECT count(*) FROM iceberg.sales.orders");
  }

  /** The query fails with Puddle's 403 (Iceberg's ForbiddenException) somewhere in its causes. */
  private void assertRefused(String sql) {
    assertThatThrownBy(() -> computeActual(sql))
        .hasStackTraceContaining(
            "ForbiddenException: Forbidden: Principal 'analyst' is not authorized");
  }

  /** Trino's snapshots of sales.orders and its rows are the writer's. */
  private void assertSeesWritersState() {
    Table table = writer.loadTable(ORDERS);
    assertThat(
            computeScalar(
                "SELECT snapshot_id FROM iceberg.sales.\"orders$snapshots\""
                    + " ORDER BY committed_at DESC LIMIT 1"))
        .isEqualTo(table.currentSnapshot().snapshotId());
    Set<Object> snapshots = new HashSet<>();
    table.snapshots().forEach(snapshot -> snapshots.add(snapshot.snapshotId()));
    assertThat(
            computeActual("SELECT snapshot_id FROM iceberg.sales.\"orders$snapshots\"")
                .getOnlyColumnAsSet())
        .isEqualTo(snapshots);
    assertThat(computeActual("SELECT id, total FROM iceberg.sales.orders").getMaterializedRows())
        .map(row -> row.getFields())
        .containsExactlyInAnyOrderElementsOf(
            written.stream().map(id -> List.<Object>of(id, id * 1.5)).toList());
  }
}
