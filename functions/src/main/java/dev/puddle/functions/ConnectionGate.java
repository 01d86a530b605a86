package dev.puddle.functions;

import dev.puddle.core.metastore.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

/**
 * Keeps the metastore's connection factory shut while SnapStart priming runs, so that priming opens
 * no connection (and makes no network call): requests that need the metastore then fail early, as
 * they would with the database unreachable, having run everything before that.
 */
final class ConnectionGate implements Database.ConnectionFactory {
  private final Database.ConnectionFactory factory;
  private volatile boolean shut;

  ConnectionGate(Database.ConnectionFactory factory) {
    this.factory = factory;
  }

  @Override
  public Connection open() throws SQLException {
    if (shut) {
      throw new SQLNonTransientConnectionException(
          "No metastore connections while priming a snapshot", "08001");
    }
    return factory.open();
  }

  @Override
  public boolean timesOutTransactionsOnServer() {
    return factory.timesOutTransactionsOnServer();
  }

  @Override
  public boolean billsEachStatement() {
    return factory.billsEachStatement();
  }

  void shut() {
    shut = true;
  }

  void reopen() {
    shut = false;
  }
}
