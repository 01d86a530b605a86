package dev.puddle.core.metastore;

import java.util.List;

/**
 * The columns of a function's result, named as its {@code RETURNS TABLE} names them, so that
 * readers ask for a column by name. The Data API returns rows without column names, so the names
 * are resolved to positions here, once.
 */
public record ResultColumns(List<String> names, int offset) {
  public static ResultColumns of(String... names) {
    return new ResultColumns(List.of(names), 0);
  }

  /** These columns, placed after {@code before}'s in a wider row. */
  public ResultColumns after(ResultColumns before) {
    return new ResultColumns(names, before.offset + before.names.size());
  }

  /** The 1-based JDBC index of the column {@code name}. */
  public int index(String name) {
    int i = names.indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException("No column " + name + " in " + names);
    }
    return offset + i + 1;
  }
}
