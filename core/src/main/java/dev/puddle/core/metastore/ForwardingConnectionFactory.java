package dev.puddle.core.metastore;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;

/**
 * A {@link Database.ConnectionFactory} that wraps another and keeps every trait of it: the wrappers
 * (a check before the first connection, a gate shut during priming, the twin's Data API stand-in)
 * change how connections are opened, never what the connections are. {@link Database} decides from
 * the traits whether a transaction sets its own statement timeout and how sparingly it looks at
 * rows again, so a wrapper that forgot one (as one forgot {@link #timesOutTransactionsOnServer()})
 * silently changed the behaviour of every request on the Data API. The traits are forwarded here,
 * and only here, and are final: a trait added to the factory is added to this class, and every
 * wrapper keeps it.
 */
public abstract class ForwardingConnectionFactory implements Database.ConnectionFactory {
  private final Database.ConnectionFactory factory;

  /** Wraps {@code factory}, whose traits the wrapper keeps. */
  protected ForwardingConnectionFactory(Database.ConnectionFactory factory) {
    this.factory = Objects.requireNonNull(factory, "factory");
  }

  /** A connection of the wrapped factory; wrappers that check or refuse first override this. */
  @Override
  public Connection open() throws SQLException {
    return factory.open();
  }

  @Override
  public final boolean timesOutTransactionsOnServer() {
    return factory.timesOutTransactionsOnServer();
  }

  @Override
  public final boolean billsEachStatement() {
    return factory.billsEachStatement();
  }
}
