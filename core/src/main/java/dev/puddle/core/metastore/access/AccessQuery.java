package dev.puddle.core.metastore.access;

import dev.puddle.core.access.BuiltInRoles;
import dev.puddle.core.access.CallerAccess;
import dev.puddle.core.access.Grant;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Securable;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Listing;
import dev.puddle.core.metastore.ResultColumns;
import dev.puddle.core.metastore.dataapi.DataApiConnections;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;

/**
 * Reads a caller's access: from the principal through its activated principal roles (is one of them
 * {@code service_admin}?) on to the catalog roles of one warehouse and every privilege they hold
 * there, each with the path of its securable; for a load or commit, with the table's row in the
 * same round trip; for a listing, with its first page.
 *
 * <p>An execution environment keeps what it read together with the realm's access version at the
 * time (migration V7: every change to principals, roles, grants or object names bumps it in the
 * same transaction). Each request reads the version, a primary-key lookup, and the grants only if
 * the version moved since; so a revoked grant no longer counts on the next request, as if nothing
 * were kept. The statements are functions whose plans PostgreSQL keeps per session.
 */
public final class AccessQuery {
  /** The caller's grants in a warehouse, or word that the kept ones are current. */
  private static final String SQL = "SELECT * FROM caller_access(?, ?, ?, ?, ?, ?)";

  /** The same, and a table or view's row, in one round trip. */
  private static final String WITH_OBJECT_SQL =
      "SELECT * FROM caller_access_and_object(?, ?, ?, ?, ?, ?, ?, ?, ?)";

  /** The access parameters of every function; a lookup's or a listing's follow. */
  private static final int ACCESS_PARAMETERS = 6;

  /** The access columns of every function's rows (V7); an object's or a listing's follow. */
  private static final ResultColumns ACCESS =
      ResultColumns.of(
          "version",
          "principal_role",
          "catalog_role_id",
          "privilege",
          "securable",
          "levels",
          "object_name");

  /** Callers kept: far more than one execution environment serves. */
  private static final int KEPT_CALLERS = 1024;

  /**
   * What one read gave: the caller's access; if a row was looked up with it, that row (empty if
   * there is no such table or view); if a listing's page was read with it, that page (empty if it
   * was not, or the statement had no room for it).
   */
  public record AccessRead(
      CallerAccess access, Optional<CatalogObject> row, Optional<Listing.Read> listed) {}

  private record Key(Caller caller, Long warehouseId) {}

  /** A caller's access as read at an access version. */
  private record Kept(long version, CallerAccess access) {}

  private final Database database;

  /**
   * The most rows a statement may return, for a listing's page to fit after the access rows: the
   * Data API's bound (the Data API's are the only connections that bill each statement), none (0)
   * over JDBC.
   */
  private final int maxRows;

  private final Map<Key, Kept> kept =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Kept> eldest) {
          return size() > KEPT_CALLERS;
        }
      };

  public AccessQuery(Database database) {
    this.database = database;
    this.maxRows = database.billsEachStatement() ? DataApiConnections.MAX_ROWS : 0;
  }

  /**
   * The caller's access in the warehouse {@code warehouseId}, or only whether it is service admin
   * when {@code warehouseId} is null.
   */
  public CallerAccess load(Caller caller, Long warehouseId) {
    return read(caller, warehouseId, null, null).access();
  }

  /**
   * The caller's access in the warehouse {@code warehouseId}, and the table or view {@code row}
   * looks up (if not null) in the same round trip. Only the access decides what the request may do:
   * the row is read, not used, before the access is checked.
   */
  public AccessRead read(Caller caller, Long warehouseId, CatalogObjects.Lookup row) {
    return read(caller, warehouseId, row, null);
  }

  /**
   * The caller's access in the warehouse {@code warehouseId}, and the first page of {@code listing}
   * (if not null) in the same round trip. As with a row, only the access decides whether the page
   * may be answered.
   */
  public AccessRead read(Caller caller, Long warehouseId, Listing listing) {
    return read(caller, warehouseId, null, listing);
  }

  private AccessRead read(
      Caller caller, Long warehouseId, CatalogObjects.Lookup row, Listing listing) {
    Long lookedIn = row != null ? Long.valueOf(row.warehouseId()) : null;
    if (listing != null) {
      lookedIn = listing.warehouseId();
    }
    if (lookedIn != null && !lookedIn.equals(warehouseId)) {
      throw new IllegalArgumentException("What is read with access must be in its warehouse");
    }
    Key key = new Key(caller, warehouseId);
    Kept known = kept(key);
    return database.read(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql(row, listing))) {
            bind(statement, connection, key, known);
            if (row != null) {
              row.bindName(connection, statement, ACCESS_PARAMETERS + 1);
            }
            if (listing != null) {
              listing.bind(connection, statement, ACCESS_PARAMETERS + 1, maxRows);
            }
            return read(statement, key, known, row, listing != null);
          }
        });
  }

  private String sql(CatalogObjects.Lookup row, Listing listing) {
    if (row != null) {
      return WITH_OBJECT_SQL;
    }
    if (listing == null) {
      return SQL;
    }
    return "SELECT * FROM "
        + listing.function(maxRows)
        + "("
        + "?, ".repeat(ACCESS_PARAMETERS + listing.parameters(maxRows) - 1)
        + "?)";
  }

  private static void bind(PreparedStatement statement, Connection connection, Key key, Kept known)
      throws SQLException {
    Caller caller = key.caller();
    statement.setString(1, caller.realm());
    statement.setString(2, caller.principal());
    statement.setBoolean(3, caller.allRoles());
    statement.setArray(4, connection.createArrayOf("text", caller.roles().toArray(String[]::new)));
    // no warehouse has id 0: bigserial starts at 1
    statement.setLong(5, key.warehouseId() == null ? 0 : key.warehouseId());
    if (known == null) {
      statement.setNull(6, Types.BIGINT);
    } else {
      statement.setLong(6, known.version());
    }
  }

  private AccessRead read(
      PreparedStatement statement,
      Key key,
      Kept known,
      CatalogObjects.Lookup lookup,
      boolean listing)
      throws SQLException {
    ResultColumns objectColumns = CatalogObjects.Lookup.COLUMNS.after(ACCESS);
    ResultColumns listingColumns = Listing.columns(maxRows).after(ACCESS);
    boolean pageRow = false;
    Integer pageLimit = null;
    List<String> names = listing ? new ArrayList<>() : List.of();
    Long version = null;
    boolean current = false;
    boolean serviceAdmin = false;
    boolean catalogRole = false;
    List<Grant> grants = new ArrayList<>();
    Optional<CatalogObject> row = Optional.empty();
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        // an object's row: its kind (never null in it) is null in the access rows
        if (lookup != null && rs.getString(objectColumns.index("kind")) != null) {
          row = Optional.of(lookup.read(rs, objectColumns));
          continue;
        }
        // a listing's rows: the version (never null in an access row) is null in them
        if (listing && rs.getString(ACCESS.index("version")) == null) {
          if (maxRows == 0) {
            // the header row, with every name of the page
            pageRow = true;
            pageLimit = Listing.pageLimit(rs, listingColumns);
            Listing.addNames(rs, listingColumns, names);
            continue;
          }
          String name = rs.getString(listingColumns.index("listed"));
          if (name != null) {
            names.add(name);
          } else {
            pageRow = true;
            pageLimit = Listing.pageLimit(rs, listingColumns);
          }
          continue;
        }
        version = rs.getLong(ACCESS.index("version"));
        String principalRole = rs.getString(ACCESS.index("principal_role"));
        if (principalRole == null) {
          current = true; // the version is the kept one's
          continue;
        }
        serviceAdmin |= principalRole.equals(BuiltInRoles.SERVICE_ADMIN);
        catalogRole |= rs.getString(ACCESS.index("catalog_role_id")) != null;
        String privilege = rs.getString(ACCESS.index("privilege"));
        if (privilege != null) {
          grants.add(new Grant(Privilege.valueOf(privilege), securable(rs)));
        }
      }
    }
    Optional<Listing.Read> listed =
        pageRow ? Optional.ofNullable(Listing.read(pageLimit, names)) : Optional.empty();
    if (current) {
      return new AccessRead(known.access(), row, listed);
    }
    CallerAccess access = new CallerAccess(key.caller(), serviceAdmin, catalogRole, grants);
    if (version != null) {
      // a caller without any role gives no row, and no version to keep its access at
      keep(key, new Kept(version, access));
    }
    return new AccessRead(access, row, listed);
  }

  private synchronized Kept kept(Key key) {
    return kept.get(key);
  }

  private synchronized void keep(Key key, Kept access) {
    kept.put(key, access);
  }

  private static Securable securable(ResultSet rs) throws SQLException {
    Securable.Kind kind =
        Securable.Kind.valueOf(rs.getString(ACCESS.index("securable")).toUpperCase(Locale.ROOT));
    if (kind == Securable.Kind.CATALOG) {
      return Securable.catalog();
    }
    Namespace namespace = Namespace.of((String[]) rs.getArray(ACCESS.index("levels")).getArray());
    return new Securable(kind, namespace, rs.getString(ACCESS.index("object_name")));
  }
}
