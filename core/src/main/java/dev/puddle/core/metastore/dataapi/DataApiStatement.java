package dev.puddle.core.metastore.dataapi;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The {@link java.sql.PreparedStatement} subset the metastore uses (which includes plain {@link
 * java.sql.Statement}s, made with no SQL). Parameters are bound by position and sent as the Data
 * API's named parameters {@code :p1}, {@code :p2}, … A plain statement may run a script of several
 * statements: the Data API takes one at a time, so they are run in order.
 */
final class DataApiStatement {
  private final DataApiConnection connection;
  private final String sql;
  private final int placeholders;
  private final List<Parameter> parameters = new ArrayList<>();
  private boolean closed;

  DataApiStatement(DataApiConnection connection, String sql) {
    this.connection = connection;
    this.sql = sql;
    this.placeholders = sql == null ? 0 : SqlScanner.placeholders(sql);
  }

  public void setString(int index, String value) throws SQLException {
    set(index, value == null ? new Parameter.Null() : new Parameter.Text(value));
  }

  public void setLong(int index, long value) throws SQLException {
    set(index, new Parameter.Int64(value));
  }

  public void setInt(int index, int value) throws SQLException {
    set(index, new Parameter.Int32(value));
  }

  public void setBoolean(int index, boolean value) throws SQLException {
    set(index, new Parameter.Bool(value));
  }

  public void setDouble(int index, double value) throws SQLException {
    set(index, new Parameter.Float64(value));
  }

  public void setBytes(int index, byte[] value) throws SQLException {
    set(index, value == null ? new Parameter.Null() : new Parameter.Bytes(value.clone()));
  }

  public void setTimestamp(int index, Timestamp value) throws SQLException {
    set(index, value == null ? new Parameter.Null() : new Parameter.Instant(value.toInstant()));
  }

  public void setNull(int index, int sqlType) throws SQLException {
    set(index, new Parameter.Null());
  }

  public void setArray(int index, Array value) throws SQLException {
    set(index, value == null ? new Parameter.Null() : new Parameter.Array(unwrap(value)));
  }

  /**
   * Values of the types the metastore binds: null, UUID, strings, numbers, booleans, bytes, arrays.
   */
  public void setObject(int index, Object value) throws SQLException {
    Parameter parameter =
        switch (value) {
          case null -> new Parameter.Null();
          case UUID uuid -> new Parameter.Uuid(uuid);
          case String text -> new Parameter.Text(text);
          case Long number -> new Parameter.Int64(number);
          case Integer number -> new Parameter.Int32(number);
          case Short number -> new Parameter.Int32(number);
          case Boolean bool -> new Parameter.Bool(bool);
          case Double number -> new Parameter.Float64(number);
          case byte[] bytes -> new Parameter.Bytes(bytes.clone());
          case Array array -> new Parameter.Array(unwrap(array));
          default ->
              throw new SQLFeatureNotSupportedException(
                  "Cannot bind a " + value.getClass().getName() + " over the Data API");
        };
    set(index, parameter);
  }

  public ResultSet executeQuery() throws SQLException {
    return rows(run(prepared(), true));
  }

  public int executeUpdate() throws SQLException {
    return (int) run(prepared(), false).updateCount();
  }

  /** Runs the statement; whether it returned rows (their result set is not kept). */
  public boolean execute() throws SQLException {
    String statement = prepared();
    boolean query = SqlScanner.isQuery(statement);
    run(statement, query);
    return query;
  }

  public ResultSet executeQuery(String sql) throws SQLException {
    return rows(run(single(sql), true));
  }

  /** Runs a script statement by statement; whether the last one returned rows. */
  public boolean execute(String sql) throws SQLException {
    plain();
    boolean query = false;
    for (String statement : SqlScanner.statements(sql)) {
      query = SqlScanner.isQuery(statement);
      run(statement, query);
    }
    return query;
  }

  public void close() {
    closed = true;
  }

  private DataApiConnection.Outcome run(String statement, boolean query) throws SQLException {
    checkOpen();
    return connection.run(statement, List.copyOf(parameters), query);
  }

  private static ResultSet rows(DataApiConnection.Outcome outcome) {
    return JdbcSubset.of(ResultSet.class, new DataApiResultSet(outcome.rows()));
  }

  private void set(int index, Parameter parameter) throws SQLException {
    checkOpen();
    if (index < 1 || index > placeholders) {
      throw new SQLException("Parameter index out of range: " + index, "22023");
    }
    while (parameters.size() < index) {
      parameters.add(null);
    }
    parameters.set(index - 1, parameter);
  }

  /** The prepared SQL, once every parameter has a value. */
  private String prepared() throws SQLException {
    checkOpen();
    if (sql == null) {
      throw new SQLException("A plain statement needs SQL to execute");
    }
    for (int i = 0; i < placeholders; i++) {
      if (i >= parameters.size() || parameters.get(i) == null) {
        throw new SQLException("No value specified for parameter " + (i + 1), "07001");
      }
    }
    return sql;
  }

  private String single(String script) throws SQLException {
    plain();
    List<String> statements = SqlScanner.statements(script);
    if (statements.size() != 1) {
      throw new SQLException("Expected one statement, got " + statements.size());
    }
    return statements.get(0);
  }

  private void plain() throws SQLException {
    checkOpen();
    if (sql != null) {
      throw new SQLException("A prepared statement runs its own SQL");
    }
  }

  private static DataApiArray unwrap(Array array) throws SQLException {
    DataApiArray own = JdbcSubset.implementation(array, DataApiArray.class);
    if (own == null) {
      throw new SQLFeatureNotSupportedException("Bind arrays made with createArrayOf");
    }
    return own;
  }

  private void checkOpen() throws SQLException {
    if (closed) {
      throw new SQLException("The statement is closed");
    }
  }
}
