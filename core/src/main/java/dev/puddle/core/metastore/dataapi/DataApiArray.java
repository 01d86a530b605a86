package dev.puddle.core.metastore.dataapi;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * The {@link java.sql.Array} subset the metastore uses: arrays made with {@code createArrayOf} to
 * bind, and array columns read back ({@code getArray()}, whose elements are strings). The rest of
 * the interface answers {@link SQLFeatureNotSupportedException} (see {@link JdbcSubset}).
 */
final class DataApiArray {
  private static final Pattern TYPE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_ ]*");

  private final String baseTypeName;
  private final Object[] elements;

  DataApiArray(String baseTypeName, Object[] elements) throws SQLException {
    // the type name is written into the SQL, so it must be a plain name
    if (!TYPE_NAME.matcher(baseTypeName).matches()) {
      throw new SQLFeatureNotSupportedException("Unsupported array type: " + baseTypeName);
    }
    this.baseTypeName = baseTypeName;
    this.elements = elements.clone();
  }

  public String getBaseTypeName() {
    return baseTypeName;
  }

  /** The elements; a {@code String[]} when they are strings, as for every text array. */
  public Object getArray() {
    return allStrings()
        ? Arrays.copyOf(elements, elements.length, String[].class)
        : elements.clone();
  }

  private boolean allStrings() {
    return Arrays.stream(elements).allMatch(e -> e == null || e instanceof String);
  }

  /** The PostgreSQL literal of the array, e.g. {@code {"a","b \"c\"",NULL}}. */
  String literal() {
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < elements.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      Object element = elements[i];
      if (element == null) {
        out.append("NULL");
      } else {
        out.append('"');
        String text = element.toString();
        for (int j = 0; j < text.length(); j++) {
          char c = text.charAt(j);
          if (c == '"' || c == '\\') {
            out.append('\\');
          }
          out.append(c);
        }
        out.append('"');
      }
    }
    return out.append('}').toString();
  }
}
