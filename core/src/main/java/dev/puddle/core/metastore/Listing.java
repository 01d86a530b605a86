package dev.puddle.core.metastore;

import dev.puddle.core.metastore.CatalogObject.Kind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Function;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;

/**
 * A read of a listing's first page of at most {@code pageSize} names after {@code pageToken}: the
 * tables or views ({@code kind}) of the namespace {@code parent}, or its child namespaces when
 * {@code kind} is null. The access check reads it with the caller's access in one round trip, as it
 * reads a load's row: {@code caller_access_and_object_names} and {@code
 * caller_access_and_namespace_names} (migration V19) give the page's names in one array on the
 * header row; over the Data API, whose rows are at most 64 KB, {@code caller_access_and_objects}
 * and {@code caller_access_and_namespaces} (V16) give a row per name, at most a bound of rows in
 * all. The page continues with {@link CatalogObjects#list} or {@link Namespaces#list}, whose pages
 * it matches name for name and token for token.
 */
public record Listing(
    long warehouseId, Namespace parent, Kind kind, String pageToken, int pageSize) {
  /** Throws 400 for a token that is not one, before anything is read. */
  public Listing {
    Page.keyAfter(pageToken);
  }

  /**
   * The columns of a page's rows, after the access columns, in a statement bounded in rows: the
   * limit the page was read with (on the one row that is not a name, null if there is no such
   * namespace), then a name.
   */
  public static final ResultColumns COLUMNS = ResultColumns.of("page_limit", "listed");

  /**
   * The same without a row bound, all on the header row: the limit, then the page's names in order
   * (null if there is no such namespace).
   */
  public static final ResultColumns NAMES_COLUMNS = ResultColumns.of("page_limit", "listed_names");

  /** The columns of the listing function's rows for at most {@code maxRows} rows (0: no bound). */
  public static ResultColumns columns(int maxRows) {
    return maxRows == 0 ? NAMES_COLUMNS : COLUMNS;
  }

  /** What a read gave: whether the namespace listed exists, and if so its page. */
  public record Read(boolean exists, Page<String> page) {
    /**
     * The page's names; 404 if the namespace {@code parent} listed does not exist, as the listing's
     * own pages answer ({@link CatalogObjects#list}).
     */
    public Page<String> names(Namespace parent) {
      if (!exists) {
        throw new NoSuchNamespaceException("Namespace does not exist: %s", parent);
      }
      return page;
    }
  }

  /**
   * The listing function, whose first parameters are the access function's, for a statement that
   * returns at most {@code maxRows} rows (0: no bound): without a bound the one that gives the
   * names in an array, {@code caller_access_and_object_names} or {@code
   * caller_access_and_namespace_names}; with one, {@code caller_access_and_objects} or {@code
   * caller_access_and_namespaces}, a row per name. Their rows' columns are {@link #columns}.
   */
  public String function(int maxRows) {
    if (maxRows == 0) {
      return kind == null ? "caller_access_and_namespace_names" : "caller_access_and_object_names";
    }
    return kind == null ? "caller_access_and_namespaces" : "caller_access_and_objects";
  }

  /**
   * The parameters the listing function takes after the access function's, for at most {@code
   * maxRows} rows (0: no bound, and no parameter for it).
   */
  public int parameters(int maxRows) {
    return (kind == null ? 3 : 4) + (maxRows > 0 ? 1 : 0);
  }

  /**
   * Sets the statement's parameters from {@code first} on: the namespace, the kind, the name the
   * page starts after, its limit and, if not 0, the most rows the statement may return.
   */
  public void bind(Connection connection, PreparedStatement statement, int first, int maxRows)
      throws SQLException {
    int p = first;
    statement.setArray(p++, Namespaces.levels(connection, parent));
    if (kind != null) {
      statement.setString(p++, kind.sql());
    }
    statement.setString(p++, Page.keyAfter(pageToken));
    // one row more than the page says whether another page follows
    statement.setInt(p++, pageSize + 1);
    if (maxRows > 0) {
      statement.setInt(p, maxRows);
    }
  }

  /**
   * The read, from the names of the rows that gave one and the limit of the row that gave it
   * ({@code pageLimit} null: no such namespace); null if the statement had no room for a page.
   */
  public static Read read(Integer pageLimit, List<String> names) {
    if (pageLimit == null) {
      return new Read(false, null);
    }
    if (pageLimit < 2) {
      return null;
    }
    return new Read(true, Page.of(names, pageLimit - 1, Function.identity()));
  }

  /**
   * The token of the page after the listed {@code name} (a table's or view's name, a child
   * namespace's last level): the key of its row, as the pages of {@link CatalogObjects#list} and
   * {@link Namespaces#list} give it.
   */
  public static String tokenAfter(String name) {
    return Page.tokenAfter(name);
  }

  /** The limit of the current row, if it is the one that is not a name. */
  public static Integer pageLimit(ResultSet rs, ResultColumns columns) throws SQLException {
    int limit = rs.getInt(columns.index("page_limit"));
    return rs.wasNull() ? null : limit;
  }

  /**
   * The page's names on the header row of a listing without a row bound, in their order: the
   * array's text, read by {@link TextArrays} rather than pgjdbc's {@code getArray}.
   */
  public static void addNames(ResultSet rs, ResultColumns columns, List<String> names)
      throws SQLException {
    String text = rs.getString(columns.index("listed_names"));
    if (text != null) {
      TextArrays.addElements(text, names);
    }
  }
}
