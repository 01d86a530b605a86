package dev.puddle.core.metastore;

import java.sql.DriverManager;
import java.util.Properties;

/**
 * Opens PostgreSQL connections that keep no session state, so RDS Proxy can multiplex them:
 * no server-side prepared statements ({@code prepareThreshold=0}), nothing set on the session.
 */
public final class PostgresConnections {
  private PostgresConnections() {}

  public static Database.ConnectionFactory factory(String jdbcUrl, String user, String password) {
    Properties properties = new Properties();
    if (user != null) {
      properties.setProperty("user", user);
    }
    if (password != null) {
      properties.setProperty("password", password);
    }
    properties.setProperty("prepareThreshold", "0");
    properties.setProperty("ApplicationName", "puddle");
    properties.setProperty("connectTimeout", "10");
    properties.setProperty("tcpKeepAlive", "true");
    return () -> DriverManager.getConnection(jdbcUrl, properties);
  }
}
