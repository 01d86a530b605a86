package dev.puddle.local;

import dev.puddle.core.metastore.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The whole content of the catalog's PostgreSQL schema: every row of every table as text, summed up
 * per table as its row count and the sum of the rows' MD5 hashes (60 bits each), so that a dump
 * stays small (the Data API answers at most 1 MiB), is read in one statement and needs no sort. Two
 * dumps are equal exactly when no row was added, removed or changed (but for a hash collision);
 * when they differ, the tables that changed are the lines that differ.
 */
final class MetastoreDump {
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
            .map(
                table ->
                    String.format(
                        "(SELECT '%1$s ' || count(*) || ' ' || coalesce(sum(('x'"
                            + " || substr(md5(t::text), 1, 15))::bit(60)::bigint), 0)"
                            + " FROM \"%1$s\" t)",
                        table))
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
