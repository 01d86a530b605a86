package dev.puddle.core.metastore;

import dev.puddle.core.events.CatalogEvents;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;

/**
 * Namespaces of a warehouse. A child namespace references its parent and tables and views reference
 * their namespace, so foreign keys keep anything from being orphaned by a concurrent drop; property
 * updates lock the namespace row, so concurrent updates never lose keys.
 */
public final class Namespaces {
  /** The property that sets a namespace's location. */
  public static final String LOCATION = "location";

  /** What a properties update did, in the terms of the REST response. */
  public record PropertiesUpdate(
      List<String> updated, List<String> removed, List<String> missing) {}

  private final Database database;

  public Namespaces(Database database) {
    this.database = database;
  }

  public void create(
      Warehouse warehouse, Namespace namespace, Map<String, String> properties, Change change) {
    database.transaction(
        change,
        (connection, events) -> {
          Long parentId = null;
          if (namespace.length() > 1) {
            Namespace parent = parentOf(namespace);
            parentId =
                id(connection, warehouse.id(), parent, false)
                    .orElseThrow(
                        () -> new NoSuchNamespaceException("Namespace does not exist: %s", parent));
          }
          String location = properties.get(LOCATION);
          if (location != null) {
            Locations.lock(connection, warehouse.id());
            Locations.checkNamespaceLocation(connection, warehouse.id(), -1, location);
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO namespace (warehouse_id, parent_id, levels, properties, location)"
                      + " VALUES (?, ?, ?, ?::jsonb, ?)"
                      + " ON CONFLICT (warehouse_id, levels) DO NOTHING")) {
            statement.setLong(1, warehouse.id());
            statement.setObject(2, parentId);
            statement.setArray(3, levels(connection, namespace));
            statement.setString(4, Json.fromMap(properties));
            statement.setString(5, location == null ? null : Locations.normalize(location));
            if (statement.executeUpdate() == 0) {
              throw new AlreadyExistsException("Namespace already exists: %s", namespace);
            }
            events.add(CatalogEvents.createNamespace(warehouse, namespace, properties));
          } catch (SQLException e) {
            if (SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION)) {
              // the parent was dropped after we looked it up
              throw new NoSuchNamespaceException(
                  "Namespace does not exist: %s", parentOf(namespace));
            }
            throw e;
          }
          return null;
        });
  }

  public Map<String, String> load(Warehouse warehouse, Namespace namespace) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT properties::text FROM namespace WHERE warehouse_id = ? AND levels = ?")) {
            statement.setLong(1, warehouse.id());
            statement.setArray(2, levels(connection, namespace));
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
              }
              return Json.toMap(rs.getString(1));
            }
          }
        });
  }

  public boolean exists(Warehouse warehouse, Namespace namespace) {
    return database.read(
        connection -> id(connection, warehouse.id(), namespace, false).isPresent());
  }

  /**
   * What a table's create reads before it writes anything: the location property of the namespace
   * (null if it has none) and the kind of the object already named so, if any.
   */
  public record CreateSite(String location, CatalogObject.Kind taken) {}

  /**
   * The namespace's location and whether the name is taken, in one statement: the two reads
   * iceberg-core's create makes ahead of its commit (is there such a table? where do the tables of
   * its namespace go?). The commit's insert checks the name again, under its own transaction.
   *
   * @throws NoSuchNamespaceException if the namespace does not exist
   */
  public CreateSite createSite(Warehouse warehouse, TableIdentifier identifier) {
    return database.read(
        connection -> {
          // a function (V18): its plan is kept
          try (PreparedStatement statement =
              connection.prepareStatement("SELECT * FROM create_site(?, ?, ?)")) {
            statement.setLong(1, warehouse.id());
            statement.setArray(2, levels(connection, identifier.namespace()));
            statement.setString(3, identifier.name());
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                throw new NoSuchNamespaceException(
                    "Namespace does not exist: %s", identifier.namespace());
              }
              String kind = rs.getString(2);
              return new CreateSite(
                  rs.getString(1), kind == null ? null : CatalogObject.Kind.fromSql(kind));
            }
          }
        });
  }

  /** The namespace's location property, if it has one. */
  public String location(Warehouse warehouse, Namespace namespace) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT location FROM namespace WHERE warehouse_id = ? AND levels = ?")) {
            statement.setLong(1, warehouse.id());
            statement.setArray(2, levels(connection, namespace));
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
              }
              return rs.getString(1);
            }
          }
        });
  }

  /**
   * Lists the children of {@code parent} (the top level when it is empty), by name. The parent's id
   * is looked up in the listing's own statement, which saves a round trip per page; only an empty
   * page asks whether the parent exists. Each row gives only its last level, as text: the rest is
   * the parent's, and a {@code text[]} would be parsed row by row.
   */
  public Page<Namespace> list(
      Warehouse warehouse, Namespace parent, String pageToken, int pageSize) {
    return database.read(
        connection -> {
          String after = Page.keyAfter(pageToken);
          // one statement per case, each a range of the index namespace_parent: "IS NOT DISTINCT
          // FROM ?" or "? IS NULL OR" would scan the warehouse's every namespace. Children share
          // the parent's levels, so their order by levels is the order of their last level; that
          // column is named apart, or ORDER BY levels would sort by it instead of reading the
          // index.
          String sql =
              "SELECT levels[cardinality(levels)] AS child FROM namespace WHERE warehouse_id = ?"
                  + (parent.isEmpty()
                      ? " AND parent_id IS NULL"
                      : " AND parent_id ="
                          + " (SELECT id FROM namespace WHERE warehouse_id = ? AND levels = ?)")
                  + (after == null ? "" : " AND levels > ?::text[]")
                  + " ORDER BY levels LIMIT ?";
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            int p = 1;
            statement.setLong(p++, warehouse.id());
            if (!parent.isEmpty()) {
              statement.setLong(p++, warehouse.id());
              statement.setArray(p++, levels(connection, parent));
            }
            if (after != null) {
              statement.setArray(p++, levels(connection, child(parent, after)));
            }
            statement.setInt(p, pageSize + 1);
            List<Namespace> result = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                result.add(child(parent, rs.getString(1)));
              }
            }
            if (result.isEmpty()
                && !parent.isEmpty()
                && id(connection, warehouse.id(), parent, false).isEmpty()) {
              throw new NoSuchNamespaceException("Namespace does not exist: %s", parent);
            }
            return Page.of(result, pageSize, Namespaces::lastLevel);
          }
        });
  }

  private static String lastLevel(Namespace namespace) {
    return namespace.level(namespace.length() - 1);
  }

  /**
   * Drops an empty namespace; false if it does not exist. The row lock makes a concurrent create of
   * a child either finish first (and the drop fails: not empty) or fail afterwards.
   */
  public boolean drop(Warehouse warehouse, Namespace namespace, Change change) {
    return database.transaction(
        change,
        (connection, events) -> {
          OptionalLong found = id(connection, warehouse.id(), namespace, true);
          if (found.isEmpty()) {
            return false;
          }
          long id = found.getAsLong();
          checkEmpty(connection, namespace, id);
          try (PreparedStatement statement =
              connection.prepareStatement("DELETE FROM namespace WHERE id = ?")) {
            statement.setLong(1, id);
            statement.executeUpdate();
            events.add(CatalogEvents.dropNamespace(warehouse, namespace));
          } catch (SQLException e) {
            if (SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION)) {
              throw new NamespaceNotEmptyException("Namespace %s is not empty.", namespace);
            }
            throw e;
          }
          return true;
        });
  }

  private static void checkEmpty(Connection connection, Namespace namespace, long id)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT (SELECT count(*) FROM namespace WHERE parent_id = ?), (SELECT count(*) FROM"
                + " catalog_object WHERE namespace_id = ? AND kind = 'table'), (SELECT count(*)"
                + " FROM catalog_object WHERE namespace_id = ? AND kind = 'view')")) {
      statement.setLong(1, id);
      statement.setLong(2, id);
      statement.setLong(3, id);
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        if (rs.getLong(1) > 0) {
          throw new NamespaceNotEmptyException(
              "Namespace %s is not empty. Contains %d child namespace(s).",
              namespace, rs.getLong(1));
        }
        if (rs.getLong(2) > 0) {
          throw new NamespaceNotEmptyException(
              "Namespace %s is not empty. Contains %d table(s).", namespace, rs.getLong(2));
        }
        if (rs.getLong(3) > 0) {
          throw new NamespaceNotEmptyException(
              "Namespace %s is not empty. Contains %d view(s).", namespace, rs.getLong(3));
        }
      }
    }
  }

  /** Sets and removes properties atomically under the namespace's row lock. */
  public PropertiesUpdate updateProperties(
      Warehouse warehouse,
      Namespace namespace,
      Map<String, String> updates,
      Set<String> removals,
      Change change) {
    return database.transaction(
        change,
        (connection, events) -> {
          long id;
          Map<String, String> properties;
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT id, properties::text FROM namespace"
                      + " WHERE warehouse_id = ? AND levels = ? FOR UPDATE")) {
            statement.setLong(1, warehouse.id());
            statement.setArray(2, levels(connection, namespace));
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
              }
              id = rs.getLong(1);
              properties = new TreeMap<>(Json.toMap(rs.getString(2)));
            }
          }
          Set<String> missing = new HashSet<>(removals);
          missing.removeAll(properties.keySet());
          Set<String> removed = new HashSet<>(removals);
          removed.removeAll(missing);

          String oldLocation = properties.get(LOCATION);
          properties.keySet().removeAll(removals);
          properties.putAll(updates);
          String newLocation = properties.get(LOCATION);
          if (newLocation != null && !newLocation.equals(oldLocation)) {
            Locations.lock(connection, warehouse.id());
            Locations.checkNamespaceLocation(connection, warehouse.id(), id, newLocation);
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE namespace SET properties = ?::jsonb, location = ? WHERE id = ?")) {
            statement.setString(1, Json.fromMap(properties));
            statement.setString(2, newLocation == null ? null : Locations.normalize(newLocation));
            statement.setLong(3, id);
            statement.executeUpdate();
          }
          PropertiesUpdate result =
              new PropertiesUpdate(
                  new ArrayList<>(updates.keySet()),
                  new ArrayList<>(removed),
                  new ArrayList<>(missing));
          events.add(
              CatalogEvents.updateNamespaceProperties(
                  warehouse, namespace, result.updated(), result.removed(), result.missing()));
          return result;
        });
  }

  /** The namespace's row id, optionally locking the row until the end of the transaction. */
  public static OptionalLong id(
      Connection connection, long warehouseId, Namespace namespace, boolean lock)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT id FROM namespace WHERE warehouse_id = ? AND levels = ?"
                + (lock ? " FOR UPDATE" : ""))) {
      statement.setLong(1, warehouseId);
      statement.setArray(2, levels(connection, namespace));
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
      }
    }
  }

  /** The namespace's levels as the {@code text[]} its rows are keyed by. */
  public static Array levels(Connection connection, Namespace namespace) throws SQLException {
    return connection.createArrayOf("text", namespace.levels());
  }

  private static Namespace parentOf(Namespace namespace) {
    return Namespace.of(Arrays.copyOf(namespace.levels(), namespace.length() - 1));
  }

  /** The child of {@code parent} whose last level is {@code name}. */
  public static Namespace child(Namespace parent, String name) {
    String[] levels = Arrays.copyOf(parent.levels(), parent.length() + 1);
    levels[parent.length()] = name;
    return Namespace.of(levels);
  }
}
