package dev.puddle.core.metastore;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.postgresql.Driver;

/**
 * Opens PostgreSQL connections that keep no session state, so RDS Proxy can multiplex them: no
 * server-side prepared statements ({@code prepareThreshold=0}), nothing set on the session, not
 * even by the driver ({@code assumeMinServerVersion}: pgjdbc then puts {@code extra_float_digits}
 * and {@code application_name} in the startup message instead of sending {@code SET} after it; see
 * {@code docs/operations.md#rds-proxy-and-pinning}, which {@code PinningTest} keeps true). A login
 * the server refuses (SQLSTATE class 28: a rotated secret, an expired IAM token) is fetched again
 * once before giving up.
 */
public final class PostgresConnections {
  // the driver directly: DriverManager would scan the class path for drivers on a cold start
  private static final Driver DRIVER = new Driver();

  private PostgresConnections() {}

  public static Database.ConnectionFactory factory(String jdbcUrl, String user, String password) {
    return factory(jdbcUrl, DatabaseCredentials.fixed(user, password));
  }

  public static Database.ConnectionFactory factory(
      String jdbcUrl, DatabaseCredentials credentials) {
    return () -> {
      try {
        return connect(jdbcUrl, credentials.current());
      } catch (SQLException e) {
        if (!isAuthenticationFailure(e)) {
          throw e;
        }
        return connect(jdbcUrl, credentials.refreshed());
      }
    };
  }

  static boolean isAuthenticationFailure(SQLException e) {
    String state = e.getSQLState();
    return state != null && state.startsWith("28");
  }

  private static Connection connect(String jdbcUrl, DatabaseCredentials.Login login)
      throws SQLException {
    Properties properties = new Properties();
    if (login.user() != null) {
      properties.setProperty("user", login.user());
    }
    if (login.password() != null) {
      properties.setProperty("password", login.password());
    }
    properties.setProperty("prepareThreshold", "0");
    // 9.0 and later take these settings in the startup message; below it, pgjdbc sends
    // SET extra_float_digits and SET application_name, and RDS Proxy pins on each SET
    properties.setProperty("assumeMinServerVersion", "9.0");
    properties.setProperty("ApplicationName", "puddle");
    properties.setProperty("connectTimeout", "10");
    properties.setProperty("tcpKeepAlive", "true");
    Connection connection = DRIVER.connect(jdbcUrl, properties);
    if (connection == null) {
      throw new SQLException("Not a PostgreSQL JDBC URL: " + jdbcUrl, "08001");
    }
    return connection;
  }
}
