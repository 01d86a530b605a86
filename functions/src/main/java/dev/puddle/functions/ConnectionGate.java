package dev.puddle.functions;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.ForwardingConnectionFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

/**
 * Keeps the metastore's connection factory shut while SnapStart priming runs, so that priming opens
 * no connection (and makes no network call): requests that need the metastore then fail early, as
 * they would with the database unreachable, having run everything before that.
 */
final class ConnectionGate extends ForwardingConnectionFactory {
  private volatile boolean shut;

  ConnectionGate(Database.ConnectionFactory factory) {
    super(factory);
  }

  @Override
  public Connection open() throws SQLException {
    if (shut) {
      throw new SQLNonTransientConnectionException(
          "No metastore connections while priming a snapshot", "08001");
    }
    return super.open();
  }

  void shut() {
    shut = true;
  }

  void reopen() {
    shut = false;
  }
}
