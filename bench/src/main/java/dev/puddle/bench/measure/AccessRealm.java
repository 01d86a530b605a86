package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.metastore.access.RealmBootstrap;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;

/**
 * A realm of the twin made for the access-at-scale measurement: one warehouse, one namespace of
 * {@link #TABLES} tables, and a caller whose one catalog role holds {@code TABLE_WRITE_DATA} on
 * every hundredth table (1%): it may load, commit to and see those, and no other. The few tables
 * loads and commits touch are created through the API; the others are rows bulk-inserted next to
 * them, sharing one real metadata file (the catalog reads a table's metadata only when it is
 * loaded). A realm {@code atScale} also holds the crowd: 10,000 principals, 1,000 principal roles,
 * 5,000 catalog roles and 100,000 grants in all; the other realm holds only the caller's own, so
 * the two differ in nothing but the access data around the caller.
 *
 * <p>The seeding is bulk SQL ({@code generate_series}) on the twin's PostgreSQL, with triggers and
 * foreign-key checks off for the session ({@code session_replication_role = replica}): a row
 * trigger per grant would bump the realm's access version 100,000 times. The version is bumped once
 * at the end instead, so the twin reads the new grants as it would after any change.
 */
public final class AccessRealm {
  public static final int TABLES = 10_000;
  public static final int PRINCIPALS = 10_000;
  public static final int PRINCIPAL_ROLES = 1_000;
  public static final int CATALOG_ROLES = 5_000;
  public static final int GRANTS = 100_000;

  /** One table in this many is the caller's. */
  static final int VISIBLE_EVERY = 100;

  /** The tables made through the API, all visible to the caller: loads and commits use them. */
  static final int API_TABLES = 10;

  public static final Namespace NAMESPACE = Namespace.of("scale");
  private static final String WAREHOUSE = "default";

  private final String realm;
  private final Side caller;

  private AccessRealm(String realm, Side caller) {
    this.realm = realm;
    this.caller = caller;
  }

  /** The caller's side: its client signs in as the caller. */
  public Side caller() {
    return caller;
  }

  public String realm() {
    return realm;
  }

  /** The name of the table numbered {@code i}; names sort as numbers. */
  static String tableName(int i) {
    return String.format("t%05d", i);
  }

  /** The tables the caller may see, by name. */
  public static List<TableIdentifier> visibleTables() {
    return IntStream.range(0, TABLES)
        .filter(i -> i % VISIBLE_EVERY == 0)
        .mapToObj(i -> TableIdentifier.of(NAMESPACE, tableName(i)))
        .toList();
  }

  /** The API-made tables: loads and commits touch these. */
  static TableIdentifier apiTable(int n) {
    return TableIdentifier.of(NAMESPACE, tableName((n % API_TABLES) * VISIBLE_EVERY));
  }

  /**
   * Makes the realm {@code realm} in the twin's PostgreSQL at {@code jdbcUrl}.
   *
   * @param template a side of the twin whose client properties (S3, paging, token endpoint) the
   *     realm's clients share, with their own credential
   * @param atScale whether the realm also holds the crowd of principals, roles and grants
   */
  public static AccessRealm make(
      String jdbcUrl, String realm, Side template, String uri, boolean atScale) throws Exception {
    String location = "s3://" + dev.puddle.bench.process.PuddleTwin.BUCKET + "/" + realm;
    PrincipalCredential root = new PrincipalCredential(realm + "-root", realm + "-root-secret");
    PrincipalCredential callerCredential;
    try (Database database =
        new Database(() -> DriverManager.getConnection(jdbcUrl, "postgres", null), 2)) {
      new Warehouses(database).ensure(realm, WAREHOUSE, location, Map.of());
      new RealmBootstrap(database).bootstrap(realm, root);
      callerCredential = new Principals(database).create(realm, "caller", Map.of());
    }
    Side admin = side(template, uri, realm + " root", location, root);
    RESTCatalog client = admin.client();
    Tables.ensureNamespace(client, NAMESPACE);
    for (int n = 0; n < API_TABLES; n++) {
      client.createTable(apiTable(n), Tables.SCHEMA);
    }
    admin.close();
    try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", null)) {
      connection.setAutoCommit(false);
      seed(connection, realm, atScale);
      connection.commit();
      try (Statement statement = connection.createStatement()) {
        connection.setAutoCommit(true);
        for (String table :
            List.of(
                "catalog_object",
                "principal",
                "principal_role",
                "principal_role_grant",
                "catalog_role",
                "catalog_role_grant",
                "privilege_grant")) {
          statement.execute("ANALYZE " + table);
        }
      }
    }
    String name = atScale ? "realm at scale" : "empty realm";
    return new AccessRealm(realm, side(template, uri, name, location, callerCredential));
  }

  private static Side side(
      Side template, String uri, String name, String location, PrincipalCredential credential) {
    Map<String, String> properties = new HashMap<>(template.clientProperties());
    properties.put(
        OAuth2Properties.CREDENTIAL, credential.clientId() + ":" + credential.clientSecret());
    return new Side(name, uri, Optional.of(WAREHOUSE), location, properties);
  }

  /** The bulk rows: the other tables, the caller's grants and, at scale, the crowd. */
  private static void seed(Connection connection, String realm, boolean atScale)
      throws SQLException {
    execute(connection, "SET LOCAL session_replication_role = replica");
    // the other tables: copies of the first API table's row, each at a location of its own
    execute(
        connection,
        "INSERT INTO catalog_object (id, warehouse_id, namespace_id, name, kind, location,"
            + " owns_location, metadata_location, metadata)"
            + " SELECT gen_random_uuid(), o.warehouse_id, o.namespace_id,"
            + " 't' || lpad(i::text, 5, '0'), 'table', o.location || '_' || i, false,"
            + " o.metadata_location, o.metadata"
            + " FROM catalog_object o JOIN warehouse w ON w.id = o.warehouse_id,"
            + " generate_series(0, "
            + (TABLES - 1)
            + ") i"
            + " WHERE w.realm_id = ? AND o.name = 't00000'"
            + " AND NOT (i % "
            + VISIBLE_EVERY
            + " = 0 AND i < "
            + API_TABLES * VISIBLE_EVERY
            + ")",
        realm);
    // the caller's role, its catalog role, and TABLE_WRITE_DATA on every hundredth table
    execute(connection, "INSERT INTO principal_role (realm_id, name) VALUES (?, 'caller')", realm);
    execute(
        connection,
        "INSERT INTO principal_role_grant (realm_id, principal_id, principal_role_id)"
            + " SELECT p.realm_id, p.id, r.id FROM principal p, principal_role r"
            + " WHERE p.realm_id = ? AND p.name = 'caller' AND r.realm_id = p.realm_id"
            + " AND r.name = 'caller'",
        realm);
    execute(
        connection,
        "INSERT INTO catalog_role (realm_id, warehouse_id, name)"
            + " SELECT realm_id, id, 'caller_tables' FROM warehouse WHERE realm_id = ?",
        realm);
    execute(
        connection,
        "INSERT INTO catalog_role_grant (realm_id, principal_role_id, catalog_role_id)"
            + " SELECT r.realm_id, r.id, c.id FROM principal_role r, catalog_role c"
            + " WHERE r.realm_id = ? AND r.name = 'caller' AND c.realm_id = r.realm_id"
            + " AND c.name = 'caller_tables'",
        realm);
    execute(
        connection,
        "INSERT INTO privilege_grant (realm_id, catalog_role_id, securable, object_id, privilege)"
            + " SELECT c.realm_id, c.id, 'table', o.id, 'TABLE_WRITE_DATA'"
            + " FROM catalog_role c JOIN catalog_object o ON o.warehouse_id = c.warehouse_id"
            + " WHERE c.realm_id = ? AND c.name = 'caller_tables'"
            + " AND "
            + number("o.name", "t")
            + " % "
            + VISIBLE_EVERY
            + " = 0",
        realm);
    if (atScale) {
      crowd(connection, realm);
    }
    execute(
        connection,
        "INSERT INTO access_version AS a (realm_id, version) VALUES (?, 1)"
            + " ON CONFLICT (realm_id) DO UPDATE SET version = a.version + 1",
        realm);
  }

  /**
   * Everyone else, counted so that the realm's totals are the round figures: principals (root and
   * the caller are two), principal roles (service_admin and the caller's), catalog roles
   * (catalog_admin and the caller's) and grants (the caller's 100 and catalog_admin's two). Each
   * other principal holds one role, each other role five catalog roles, each other catalog role
   * about twenty grants on tables spread over the namespace.
   */
  private static void crowd(Connection connection, String realm) throws SQLException {
    int principals = PRINCIPALS - 2;
    int roles = PRINCIPAL_ROLES - 2;
    int catalogRoles = CATALOG_ROLES - 2;
    int grants = GRANTS - TABLES / VISIBLE_EVERY - 2;
    // a secret nobody can present: these principals are never signed in as
    execute(
        connection,
        "INSERT INTO principal (realm_id, name, client_id, secret_algorithm, secret_iterations,"
            + " secret_salt, secret_hash)"
            + " SELECT ?, 'p' || i, ? || '-p' || i, 'PBKDF2WithHmacSHA256', 1, '\\x00', '\\x00'"
            + " FROM generate_series(1, "
            + principals
            + ") i",
        realm,
        realm);
    execute(
        connection,
        "INSERT INTO principal_role (realm_id, name)"
            + " SELECT ?, 'r' || i FROM generate_series(1, "
            + roles
            + ") i",
        realm);
    execute(
        connection,
        "INSERT INTO catalog_role (realm_id, warehouse_id, name)"
            + " SELECT w.realm_id, w.id, 'c' || i FROM warehouse w,"
            + " generate_series(1, "
            + catalogRoles
            + ") i WHERE w.realm_id = ?",
        realm);
    execute(
        connection,
        "INSERT INTO principal_role_grant (realm_id, principal_id, principal_role_id)"
            + " SELECT p.realm_id, p.id, r.id FROM principal p JOIN principal_role r"
            + " ON r.realm_id = p.realm_id"
            + " AND r.name = 'r' || (1 + "
            + number("p.name", "p")
            + " % "
            + roles
            + ")"
            + " WHERE p.realm_id = ? AND p.name ~ '^p[0-9]+$'",
        realm);
    execute(
        connection,
        "INSERT INTO catalog_role_grant (realm_id, principal_role_id, catalog_role_id)"
            + " SELECT r.realm_id, r.id, c.id FROM principal_role r, generate_series(0, 4) k,"
            + " catalog_role c"
            + " WHERE r.realm_id = ? AND r.name ~ '^r[0-9]+$' AND c.realm_id = r.realm_id"
            + " AND c.name = 'c' || (1 + ("
            + number("r.name", "r")
            + " * 5 + k) % "
            + catalogRoles
            + ")",
        realm);
    // grant k: catalog role k mod n on table k mod 10,000; the pairs never repeat
    execute(
        connection,
        "WITH roles AS (SELECT c.id, row_number() OVER (ORDER BY c.id) - 1 AS n"
            + "   FROM catalog_role c WHERE c.realm_id = ? AND c.name ~ '^c[0-9]+$'),"
            + " tables AS (SELECT o.id, row_number() OVER (ORDER BY o.name) - 1 AS n"
            + "   FROM catalog_object o JOIN warehouse w ON w.id = o.warehouse_id"
            + "   WHERE w.realm_id = ?)"
            + " INSERT INTO privilege_grant (realm_id, catalog_role_id, securable, object_id,"
            + " privilege)"
            + " SELECT ?, r.id, 'table', t.id, 'TABLE_READ_DATA'"
            + " FROM generate_series(0, "
            + (grants - 1)
            + ") k"
            + " JOIN roles r ON r.n = k % "
            + catalogRoles
            + " JOIN tables t ON t.n = k % "
            + TABLES,
        realm,
        realm,
        realm);
  }

  /**
   * The number in a seeded name such as {@code t00042}, or null for any other name: PostgreSQL may
   * evaluate it on rows of other realms before their filter.
   */
  private static String number(String column, String prefix) {
    return "(CASE WHEN "
        + column
        + " ~ '^"
        + prefix
        + "[0-9]+$' THEN substr("
        + column
        + ", 2)::int END)";
  }

  private static void execute(Connection connection, String sql, String... parameters)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setString(i + 1, parameters[i]);
      }
      statement.execute();
    }
  }
}
