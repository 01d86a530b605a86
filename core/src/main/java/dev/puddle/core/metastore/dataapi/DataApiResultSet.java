package dev.puddle.core.metastore.dataapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Array;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * The {@link java.sql.ResultSet} subset the metastore uses, over rows read by {@link ResultReader}:
 * forward-only, by column index. Values arrive as JSON ({@code row_to_json}), so the getters
 * convert as PostgreSQL's JDBC driver would: numbers and text either way, UUIDs from their text,
 * arrays as string arrays.
 */
final class DataApiResultSet {
  private final List<List<JsonNode>> rows;
  private int row = -1;
  private boolean wasNull;
  private boolean closed;

  DataApiResultSet(List<List<JsonNode>> rows) {
    this.rows = rows;
  }

  public boolean next() throws SQLException {
    checkOpen();
    if (row < rows.size()) {
      row++;
    }
    return row < rows.size();
  }

  public String getString(int column) throws SQLException {
    JsonNode value = value(column);
    if (value == null) {
      return null;
    }
    if (value.isTextual()) {
      return value.textValue();
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? "t" : "f";
    }
    return value.isValueNode() ? value.asText() : value.toString();
  }

  public long getLong(int column) throws SQLException {
    JsonNode value = value(column);
    if (value == null) {
      return 0;
    }
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.longValue();
    }
    try {
      return Long.parseLong(value.asText());
    } catch (NumberFormatException e) {
      throw new SQLDataException("Not a bigint: " + value, "22003", e);
    }
  }

  public int getInt(int column) throws SQLException {
    long value = getLong(column);
    if (value != (int) value) {
      throw new SQLDataException("Not an integer: " + value, "22003");
    }
    return (int) value;
  }

  public boolean getBoolean(int column) throws SQLException {
    JsonNode value = value(column);
    if (value == null) {
      return false;
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    return switch (value.asText()) {
      case "t", "true", "1" -> true;
      case "f", "false", "0" -> false;
      default -> throw new SQLDataException("Not a boolean: " + value, "22018");
    };
  }

  /** A {@code uuid} column, from its text. */
  public <T> T getObject(int column, Class<T> type) throws SQLException {
    if (type != UUID.class) {
      throw new SQLFeatureNotSupportedException("Cannot read a " + type.getName());
    }
    String text = getString(column);
    try {
      return type.cast(text == null ? null : UUID.fromString(text));
    } catch (IllegalArgumentException e) {
      throw new SQLDataException("Not a UUID: " + text, "22P02", e);
    }
  }

  /** A {@code bytea} column, which {@code row_to_json} writes in hex ({@code \x0a1b…}). */
  public byte[] getBytes(int column) throws SQLException {
    String text = getString(column);
    if (text == null) {
      return null;
    }
    if (!text.startsWith("\\x")) {
      throw new SQLDataException("Not bytea in hex: " + text, "22P02");
    }
    try {
      return HexFormat.of().parseHex(text, 2, text.length());
    } catch (IllegalArgumentException e) {
      throw new SQLDataException("Not bytea in hex: " + text, "22P02", e);
    }
  }

  /**
   * A {@code timestamptz} (or {@code timestamp}, read as UTC) column, which {@code row_to_json}
   * writes in ISO 8601.
   */
  public Timestamp getTimestamp(int column) throws SQLException {
    String text = getString(column);
    if (text == null) {
      return null;
    }
    try {
      TemporalAccessor parsed =
          DateTimeFormatter.ISO_DATE_TIME.parseBest(
              text, OffsetDateTime::from, LocalDateTime::from);
      return Timestamp.from(
          parsed instanceof OffsetDateTime offset
              ? offset.toInstant()
              : ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      throw new SQLDataException("Not a timestamp: " + text, "22007", e);
    }
  }

  /** An array column; its elements are strings, as they are for the text arrays Puddle keeps. */
  public Array getArray(int column) throws SQLException {
    JsonNode value = value(column);
    if (value == null) {
      return null;
    }
    if (!value.isArray()) {
      throw new SQLDataException("Not an array: " + value, "22P02");
    }
    String[] elements = new String[value.size()];
    for (int i = 0; i < elements.length; i++) {
      JsonNode element = value.get(i);
      elements[i] =
          element.isNull() ? null : element.isValueNode() ? element.asText() : element.toString();
    }
    return JdbcSubset.of(Array.class, new DataApiArray("text", elements));
  }

  public boolean wasNull() throws SQLException {
    checkOpen();
    return wasNull;
  }

  public void close() {
    closed = true;
  }

  /** The value at the current row, or null (noting it for {@link #wasNull()}). */
  private JsonNode value(int column) throws SQLException {
    checkOpen();
    if (row < 0 || row >= rows.size()) {
      throw new SQLException("No current row", "24000");
    }
    List<JsonNode> values = rows.get(row);
    if (column < 1 || column > values.size()) {
      throw new SQLException("Column index out of range: " + column, "22023");
    }
    JsonNode value = values.get(column - 1);
    wasNull = value == null || value.isNull();
    return wasNull ? null : value;
  }

  private void checkOpen() throws SQLException {
    if (closed) {
      throw new SQLException("The result set is closed");
    }
  }
}
