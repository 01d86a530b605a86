package dev.puddle.core.metastore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;

/** What store tests read straight from the tables, to see what the store left behind. */
public final class Rows {
  private Rows() {}

  /** The single number a query such as {@code SELECT count(*) …} returns. */
  public static long count(Database database, String sql, Object... parameters) {
    return database.read(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
              statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rs = statement.executeQuery()) {
              rs.next();
              return rs.getLong(1);
            }
          }
        });
  }
}
