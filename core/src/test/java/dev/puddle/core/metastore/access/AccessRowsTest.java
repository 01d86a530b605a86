package dev.puddle.core.metastore.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.access.Grant;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Securable;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.FreshDatabase;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One place decides a caller's access rows (migration V17): the reads that return a table's row or
 * a listing's first page with the access (V16's row per name and V19.s names in one array) give
 * exactly {@code caller_access}'s rows, whether the caller's kept version is current, stale or
 * absent, and a listing bounded in rows counts them.
 */
@ExtendWith(FreshDatabase.class)
class AccessRowsTest {
  private static final String ACCESS =
      "version, principal_role, catalog_role_id, privilege, securable, levels, object_name";

  private static final String CALLER_ACCESS = "caller_access(?, ?, ?, ?, ?, ?)";

  /** Each read with the access, its arguments after the access's, and what marks its own rows. */
  private static final List<String> READS =
      List.of(
          "caller_access_and_object(?, ?, ?, ?, ?, ?, '{db}', 'orders', NULL) WHERE kind IS NULL",
          "caller_access_and_objects(?, ?, ?, ?, ?, ?, '{db}', 'table', NULL, 10, NULL)"
              + " WHERE version IS NOT NULL",
          "caller_access_and_namespaces(?, ?, ?, ?, ?, ?, '{}', NULL, 10, NULL)"
              + " WHERE version IS NOT NULL",
          "caller_access_and_object_names(?, ?, ?, ?, ?, ?, '{db}', 'table', NULL, 10)"
              + " WHERE version IS NOT NULL",
          "caller_access_and_namespace_names(?, ?, ?, ?, ?, ?, '{}', NULL, 10)"
              + " WHERE version IS NOT NULL");

  private Database database;
  private Warehouse warehouse;

  @BeforeEach
  void setUp(Database database) {
    this.database = database;
    warehouse = new Warehouses(database).ensure("r", "wh", "s3://b/wh", Map.of());
    new Namespaces(database).create(warehouse, Namespace.of("db"), Map.of(), Change.NONE);
    new Principals(database).create("r", "etl", Map.of());
    PrincipalRoles roles = new PrincipalRoles(database);
    CatalogRoles catalogRoles = new CatalogRoles(database);
    PrivilegeGrants grants = new PrivilegeGrants(database);
    for (String role : List.of("readers", "writers", "idle")) {
      roles.create("r", role, Map.of());
      roles.assign("r", "etl", role);
    }
    catalogRoles.create(warehouse, "read", Map.of());
    catalogRoles.create(warehouse, "write", Map.of());
    catalogRoles.assign(warehouse, "readers", "read");
    catalogRoles.assign(warehouse, "writers", "write");
    grants.add(warehouse, "read", new Grant(Privilege.NAMESPACE_LIST, Securable.catalog()));
    grants.add(
        warehouse,
        "read",
        new Grant(Privilege.TABLE_LIST, Securable.namespace(Namespace.of("db"))));
  }

  @Test
  void everyReadWithTheAccessGivesCallerAccessRows() {
    List<List<Object>> grants = rows(CALLER_ACCESS, true, null, null);
    long version = (Long) grants.getFirst().getFirst();
    // the three principal roles, readers' with its two grants: four rows, and the version alone
    assertThat(grants).hasSize(4);
    assertThat(rows(CALLER_ACCESS, true, null, version))
        .containsExactly(Arrays.asList(version, null, null, null, null, null, null));

    for (String read : READS) {
      for (Long known : Arrays.asList(null, version, version - 1)) {
        assertThat(rows(read, true, null, known))
            .as("%s, kept at %s", read, known)
            .containsExactlyInAnyOrderElementsOf(rows(CALLER_ACCESS, true, null, known));
      }
      // roles activated by name, and a caller with none: no row, not even the version
      assertThat(rows(read, false, "readers", null))
          .hasSize(2)
          .containsExactlyInAnyOrderElementsOf(rows(CALLER_ACCESS, false, "readers", null));
      assertThat(rows(read, false, "nobody", null)).isEmpty();
    }
  }

  @Test
  void aListingBoundedInRowsLeavesRoomForTheAccessRows() {
    // four access rows and the header row: a page of five in a statement of ten rows
    assertThat(pageLimit(null)).isEqualTo(5);
    // the version alone: a page of eight
    long version = (Long) rows(CALLER_ACCESS, true, null, null).getFirst().getFirst();
    assertThat(pageLimit(version)).isEqualTo(8);
  }

  private int pageLimit(Long known) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT page_limit FROM caller_access_and_objects(?, ?, ?, ?, ?, ?, '{db}',"
                      + " 'table', NULL, 1000, 10) WHERE page_limit IS NOT NULL")) {
            bind(statement, connection, true, null, known);
            try (ResultSet rs = statement.executeQuery()) {
              assertThat(rs.next()).isTrue();
              return rs.getInt(1);
            }
          }
        });
  }

  private List<List<Object>> rows(String read, boolean allRoles, String role, Long known) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement("SELECT " + ACCESS + " FROM " + read)) {
            bind(statement, connection, allRoles, role, known);
            List<List<Object>> rows = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= 7; i++) {
                  Object value = rs.getObject(i);
                  row.add(
                      value instanceof Array array ? List.of((Object[]) array.getArray()) : value);
                }
                rows.add(row);
              }
            }
            return rows;
          }
        });
  }

  private void bind(
      PreparedStatement statement, Connection connection, boolean allRoles, String role, Long known)
      throws SQLException {
    statement.setString(1, "r");
    statement.setString(2, "etl");
    statement.setBoolean(3, allRoles);
    statement.setArray(
        4, connection.createArrayOf("text", role == null ? new String[0] : new String[] {role}));
    statement.setLong(5, warehouse.id());
    statement.setObject(6, known, Types.BIGINT);
  }
}
