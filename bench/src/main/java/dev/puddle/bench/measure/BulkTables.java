package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Fills a namespace with tables {@code t0} to {@code t<n-1>} in seconds, alike on both sides: the
 * first created through the side's API, the others copies of its row inserted with one {@code
 * INSERT … SELECT generate_series} into the side's own store (Puddle's {@code catalog_object}, the
 * reference JdbcCatalog's {@code iceberg_tables}), all sharing the first one's metadata file.
 * Creating 100,000 tables through the API would take hours; a listing reads only names.
 */
public final class BulkTables {
  private BulkTables() {}

  /**
   * Fills {@code namespace} of Puddle's twin, whose metastore is the database at {@code jdbcUrl}.
   */
  public static void puddle(
      Side side, String jdbcUrl, String realm, String warehouse, Namespace namespace, int tables)
      throws SQLException {
    createFirst(side, namespace);
    insert(
        jdbcUrl,
        "INSERT INTO catalog_object (id, warehouse_id, namespace_id, name, kind, location,"
            + " owns_location, metadata_location, metadata)"
            + " SELECT gen_random_uuid(), o.warehouse_id, o.namespace_id, 't' || i, 'table',"
            + " o.location || '_' || i, false, o.metadata_location, o.metadata"
            + " FROM catalog_object o JOIN warehouse w ON w.id = o.warehouse_id"
            + " JOIN namespace n ON n.id = o.namespace_id, generate_series(1, ?) i"
            + " WHERE w.realm_id = ? AND w.name = ? AND n.levels = ?::text[] AND o.name = 't0'"
            + " ON CONFLICT DO NOTHING",
        "catalog_object",
        tables - 1,
        realm,
        warehouse,
        "{" + String.join(",", namespace.levels()) + "}");
  }

  /**
   * Fills {@code namespace} of the reference server, whose JdbcCatalog (schema V1) keeps its tables
   * in the database at {@code jdbcUrl}.
   */
  public static void reference(Side side, String jdbcUrl, Namespace namespace, int tables)
      throws SQLException {
    createFirst(side, namespace);
    insert(
        jdbcUrl,
        "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name,"
            + " metadata_location, previous_metadata_location, iceberg_type)"
            + " SELECT catalog_name, table_namespace, 't' || i, metadata_location,"
            + " previous_metadata_location, iceberg_type FROM iceberg_tables,"
            + " generate_series(1, ?) i WHERE table_namespace = ? AND table_name = 't0'"
            + " ON CONFLICT DO NOTHING",
        "iceberg_tables",
        tables - 1,
        String.join(".", namespace.levels()));
  }

  private static void createFirst(Side side, Namespace namespace) {
    RESTCatalog client = side.client();
    Tables.ensureNamespace(client, namespace);
    TableIdentifier first = TableIdentifier.of(namespace, "t0");
    if (!client.tableExists(first)) {
      client.createTable(first, Tables.SCHEMA);
    }
  }

  private static void insert(String jdbcUrl, String sql, String table, int copies, Object... more)
      throws SQLException {
    try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", null)) {
      try (PreparedStatement statement = connection.prepareStatement(sql)) {
        statement.setInt(1, copies);
        for (int i = 0; i < more.length; i++) {
          statement.setObject(i + 2, more[i]);
        }
        statement.executeUpdate();
      }
      try (Statement statement = connection.createStatement()) {
        // the planner's estimates as after the same creates through the API and autovacuum
        statement.execute("ANALYZE " + table);
      }
    }
  }
}
