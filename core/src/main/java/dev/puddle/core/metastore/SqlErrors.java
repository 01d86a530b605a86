package dev.puddle.core.metastore;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.jdbc.UncheckedSQLException;

/** Classifies PostgreSQL errors by SQLSTATE. */
public final class SqlErrors {
  public static final String UNIQUE_VIOLATION = "23505";
  public static final String FOREIGN_KEY_VIOLATION = "23503";
  public static final String QUERY_CANCELED = "57014";

  /** The class of data exceptions: a value that does not fit, such as text holding a NUL. */
  private static final String DATA_EXCEPTION_CLASS = "22";

  private SqlErrors() {}

  public static boolean is(SQLException e, String sqlState) {
    return sqlState.equals(e.getSQLState());
  }

  /** Whether the connection itself failed (class 08, or the server is shutting down). */
  public static boolean isConnectionFailure(SQLException e) {
    String state = e.getSQLState();
    return e instanceof SQLTransientConnectionException
        || e instanceof SQLNonTransientConnectionException
        || (state != null && (state.startsWith("08") || state.startsWith("57P")));
  }

  /**
   * Turns an unexpected SQL error into the exception the REST layer reports. A data exception
   * (class 22) is a value the client sent that PostgreSQL cannot hold, such as text with a NUL
   * (which Iceberg allows in names and properties, and PostgreSQL's text and jsonb do not): a 400,
   * whose message names the SQLSTATE, never the statement.
   */
  public static RuntimeException translate(SQLException e) {
    if (isConnectionFailure(e)) {
      return new ServiceUnavailableException(e, "Metastore unavailable: %s", e.getMessage());
    }
    if (e.getSQLState() != null && e.getSQLState().startsWith(DATA_EXCEPTION_CLASS)) {
      return new BadRequestException(
          "Invalid value: the metastore cannot store it, e.g. text with a NUL character"
              + " (SQLSTATE %s)",
          e.getSQLState());
    }
    return new UncheckedSQLException(e, "Metastore error (SQLSTATE %s)", e.getSQLState());
  }
}
