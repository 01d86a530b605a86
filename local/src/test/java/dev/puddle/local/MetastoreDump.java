package dev.puddle.local;

import dev.puddle.core.metastore.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The whole content of the catalog's PostgreSQL schema: every row of every table as text, summed up
 * per table as its row count and the sum of the rows' MD5 hashes (60 bits each), so that a dump
 * stays small (the Data API answers at most 1 MiB), is read in one statement and needs no sort. Two
 * dumps are equal exactly when no row was added, removed or changed (but for a hash collision);
 * when they differ, the tables that changed are the lines that differ.
 *
 * <p>What the change feed's relay writes on its own, after the change that recorded an event, is
 * not the catalog's state and is left out: its claim ({@code event_relay}) and the time an event
 * was published ({@code catalog_event.published_at}).
 */
final class MetastoreDump {
  /** The relay's own bookkeeping. */
  private static final Set<String> RELAY_STATE = Set.of("event_relay");

  /** How a table's row is read, where not whole. */
  private static final Map<String, String> ROWS =
      Map.of("catalog_event", "(to_jsonb(t) - 'published_at')::text");

  private final Database database;
  private final String query;

  private MetastoreDump(Database database, String query) {
    this.database = database;
    this.query = query;
  }

  /** A dump of every base table of the schema the catalog's connections use. */
  static MetastoreDump of(Database database) {
    List<String> tables =
        database.read(
            connection -> {
              List<String> names = new ArrayList<>();
              try (PreparedStatement statement =
                      connection.prepareStatement(
                          "SELECT table_name FROM information_schema.tables"
                              + " WHERE table_schema = current_schema()"
                              + " AND table_type = 'BASE TABLE' ORDER BY table_name");
                  ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                  names.add(rows.getString(1));
                }
              }
              return names;
            });
    if (tables.isEmpty()) {
      throw new IllegalStateException("The catalog's schema has no tables");
    }
    // the sum of the rows' hashes does not depend on their order: no sort, no concatenation
    String query =
        tables.stream()
            .filter(table -> !RELAY_STATE.contains(table))
            .map(
                table ->
                    String.format(
                        "(SELECT '%1$s ' || count(*) || ' ' || coalesce(sum(('x'"
                            + " || substr(md5(%2$s), 1, 15))::bit(60)::bigint), 0)"
                            + " FROM \"%1$s\" t)",
                        table, ROWS.getOrDefault(table, "t::text")))
            .collect(Collectors.joining(" || E'\\n' || ", "SELECT ", ""));
    return new MetastoreDump(database, query);
  }

  /**
   * The columns of every base table of the schema the catalog's connections use, in column order:
   * what an earlier version of the schema held, for {@link #of(Database, Map)} after a migration.
   */
  static Map<String, List<String>> columns(Database database) {
    return database.read(
        connection -> {
          Map<String, List<String>> columns = new java.util.TreeMap<>();
          try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT c.table_name, c.column_name FROM information_schema.columns c"
                          + " JOIN information_schema.tables t"
                          + " ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
                          + " WHERE c.table_schema = current_schema()"
                          + " AND t.table_type = 'BASE TABLE'"
                          + " ORDER BY c.table_name, c.ordinal_position");
              ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
              columns
                  .computeIfAbsent(rows.getString(1), table -> new ArrayList<>())
                  .add(rows.getString(2));
            }
          }
          return columns;
        });
  }

  /**
   * A dump of the given tables, each read as the given columns only (e.g. those an earlier version
   * of the schema had, so a later migration's new columns do not count as a change), every row
   * whole.
   */
  static MetastoreDump of(Database database, Map<String, List<String>> columns) {
    String query =
        columns.entrySet().stream()
            .map(
                table ->
                    String.format(
                        "(SELECT '%1$s ' || count(*) || ' ' || coalesce(sum(('x'"
                            + " || substr(md5(jsonb_build_array(%2$s)::text), 1, 15))::bit(60)"
                            + "::bigint), 0) FROM \"%1$s\" t)",
                        table.getKey(),
                        table.getValue().stream()
                            .map(column -> "t.\"" + column + "\"")
                            .collect(Collectors.joining(", "))))
            .collect(Collectors.joining(" || E'\\n' || ", "SELECT ", ""));
    return new MetastoreDump(database, query);
  }

  /** The current content of the schema. */
  String take() {
    return database.read(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(query);
              ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getString(1);
          }
        });
  }
}
