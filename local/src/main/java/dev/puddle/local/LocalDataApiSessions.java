package dev.puddle.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingDeque;

/**
 * The database side of {@link LocalDataApi}: runs Data API statements on PostgreSQL over JDBC,
 * autocommit ones on pooled connections and each transaction on a connection of its own, and
 * converts parameters and results between the Data API's JSON fields and JDBC. It holds no SQL of
 * its own: it runs what the Data API client sent, as the service does.
 */
final class LocalDataApiSessions implements AutoCloseable {
  /** A statement's result, as the Data API returns it. */
  record Result(List<List<ObjectNode>> records, long updated) {}

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final String jdbcUrl;
  private final Properties properties = new Properties();
  private final LinkedBlockingDeque<Connection> idle = new LinkedBlockingDeque<>();
  private final Map<String, Connection> transactions = new ConcurrentHashMap<>();

  LocalDataApiSessions(String jdbcUrl, String user) {
    this.jdbcUrl = jdbcUrl;
    properties.setProperty("user", user);
    properties.setProperty("ApplicationName", "puddle-local-data-api");
  }

  String begin() throws SQLException {
    Connection connection = DriverManager.getConnection(jdbcUrl, properties);
    connection.setAutoCommit(false);
    String id = UUID.randomUUID().toString();
    transactions.put(id, connection);
    return id;
  }

  /** Ends a transaction; false if there is none of that id. */
  boolean end(String id, boolean commit) throws SQLException {
    Connection connection = transactions.remove(id);
    if (connection == null) {
      return false;
    }
    try (connection) {
      if (commit) {
        connection.commit();
      } else {
        connection.rollback();
      }
    }
    return true;
  }

  boolean exists(String transactionId) {
    return transactions.containsKey(transactionId);
  }

  /**
   * Runs a statement whose parameters are already positional ({@code names} says which named
   * parameter each {@code ?} takes).
   */
  Result execute(
      String sql, List<String> names, Map<String, JsonNode> parameters, String transactionId)
      throws SQLException {
    if (transactionId != null) {
      Connection connection = transactions.get(transactionId);
      if (connection == null) {
        throw new SQLException("Transaction " + transactionId + " ended", "08003");
      }
      synchronized (connection) {
        return execute(connection, sql, names, parameters);
      }
    }
    Connection connection = idle.pollFirst();
    if (connection == null) {
      connection = DriverManager.getConnection(jdbcUrl, properties);
    }
    boolean reusable = false;
    try {
      Result result = execute(connection, sql, names, parameters);
      reusable = true;
      return result;
    } catch (SQLException e) {
      String state = e.getSQLState();
      reusable = state == null || !state.startsWith("08");
      throw e;
    } finally {
      if (reusable) {
        idle.addFirst(connection);
      } else {
        connection.close();
      }
    }
  }

  private static Result execute(
      Connection connection, String sql, List<String> names, Map<String, JsonNode> parameters)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < names.size(); i++) {
        JsonNode parameter = parameters.get(names.get(i));
        if (parameter == null) {
          throw new SQLException("No value given for parameter " + names.get(i), "07001");
        }
        bind(statement, i + 1, parameter);
      }
      if (!statement.execute()) {
        return new Result(List.of(), statement.getUpdateCount());
      }
      try (ResultSet rs = statement.getResultSet()) {
        List<List<ObjectNode>> records = new ArrayList<>();
        ResultSetMetaData meta = rs.getMetaData();
        while (rs.next()) {
          List<ObjectNode> record = new ArrayList<>();
          for (int column = 1; column <= meta.getColumnCount(); column++) {
            record.add(field(rs, column, meta.getColumnType(column)));
          }
          records.add(record);
        }
        return new Result(records, 0);
      }
    }
  }

  /** Binds an SqlParameter ({@code {name, value: Field, typeHint}}) as the Data API would. */
  private static void bind(PreparedStatement statement, int index, JsonNode parameter)
      throws SQLException {
    JsonNode value = parameter.path("value");
    String hint = parameter.path("typeHint").asText("");
    if (value.path("isNull").asBoolean(false)) {
      statement.setNull(index, Types.NULL);
    } else if (value.has("stringValue")) {
      String text = value.get("stringValue").textValue();
      switch (hint) {
        case "UUID" -> statement.setObject(index, UUID.fromString(text));
        case "DECIMAL" -> statement.setBigDecimal(index, new BigDecimal(text));
        case "JSON" -> statement.setObject(index, text, Types.OTHER);
        default -> statement.setString(index, text);
      }
    } else if (value.has("longValue")) {
      statement.setLong(index, value.get("longValue").longValue());
    } else if (value.has("booleanValue")) {
      statement.setBoolean(index, value.get("booleanValue").booleanValue());
    } else if (value.has("doubleValue")) {
      statement.setDouble(index, value.get("doubleValue").doubleValue());
    } else if (value.has("blobValue")) {
      statement.setBytes(index, Base64.getDecoder().decode(value.get("blobValue").textValue()));
    } else {
      throw new SQLException("Unsupported parameter value: " + value);
    }
  }

  /** One column's value as a Data API Field: exactly one member set. */
  private static ObjectNode field(ResultSet rs, int column, int type) throws SQLException {
    ObjectNode field = JSON.objectNode();
    switch (type) {
      case Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT -> {
        long value = rs.getLong(column);
        field.put("longValue", value);
      }
      case Types.BOOLEAN, Types.BIT -> field.put("booleanValue", rs.getBoolean(column));
      case Types.DOUBLE, Types.FLOAT, Types.REAL -> field.put("doubleValue", rs.getDouble(column));
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> {
        byte[] bytes = rs.getBytes(column);
        if (bytes != null) {
          field.put("blobValue", Base64.getEncoder().encodeToString(bytes));
        }
      }
      case Types.ARRAY -> {
        Array array = rs.getArray(column);
        if (array != null) {
          field.set("arrayValue", arrayValue((Object[]) array.getArray()));
        }
      }
      default -> {
        String value = rs.getString(column);
        if (value != null) {
          field.put("stringValue", value);
        }
      }
    }
    if (rs.wasNull()) {
      field.removeAll();
      field.put("isNull", true);
    }
    return field;
  }

  private static ObjectNode arrayValue(Object[] elements) {
    ObjectNode value = JSON.objectNode();
    boolean numbers = elements.length > 0 && elements[0] instanceof Number;
    ArrayNode values = value.putArray(numbers ? "longValues" : "stringValues");
    for (Object element : elements) {
      if (element == null) {
        values.addNull();
      } else if (numbers) {
        values.add(((Number) element).longValue());
      } else {
        values.add(element.toString());
      }
    }
    return value;
  }

  @Override
  public void close() {
    for (String id : List.copyOf(transactions.keySet())) {
      try {
        end(id, false);
      } catch (SQLException ignored) {
        // shutting down
      }
    }
    Connection connection;
    while ((connection = idle.pollFirst()) != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // shutting down
      }
    }
  }
}
