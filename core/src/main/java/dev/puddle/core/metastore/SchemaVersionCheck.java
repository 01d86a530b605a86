package dev.puddle.core.metastore;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Keeps a release from serving from a schema newer than it knows: an older release started against
 * the schema a newer one migrated (a rollback of the functions after a migration, or a cold start
 * of the old version while a deploy replaces it). The first connection an execution environment
 * opens reads the schema's highest recorded migration, one statement per cold start; while it is
 * newer than {@link Migrations#newest()} the connection is closed and the request answered 503 with
 * both versions named, and every later connection checks again (the refusal lasts until a release
 * that knows the schema replaces this one, not a crash loop). Once a connection passed, the schema
 * is not read again: migrations only ever add, so it cannot become unknown under a running release
 * except by the next deploy, whose old environments the expand-only rule keeps safe.
 */
public final class SchemaVersionCheck extends ForwardingConnectionFactory {
  /** How every refusal's message begins: what {@link #refused} recognises. */
  private static final String REFUSAL = "The metastore's schema is at version ";

  private final int newestKnown;
  private volatile boolean passed;

  /** Connections of {@code factory}, the first checked against this release's newest script. */
  public SchemaVersionCheck(Database.ConnectionFactory factory) {
    this(factory, Migrations.newest());
  }

  SchemaVersionCheck(Database.ConnectionFactory factory, int newestKnown) {
    // the check only reads the schema's version: the connections keep every trait of the factory's
    super(factory);
    this.newestKnown = newestKnown;
  }

  @Override
  public Connection open() throws SQLException {
    Connection connection = super.open();
    if (passed) {
      return connection;
    }
    int version;
    try {
      version = highestApplied(connection);
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
    if (version > newestKnown) {
      connection.close();
      throw tooNew(version, newestKnown);
    }
    passed = true;
    return connection;
  }

  /** The error of a schema at {@code schemaVersion}, newer than the release's {@code newest}. */
  public static ServiceUnavailableException tooNew(int schemaVersion, int newest) {
    return new ServiceUnavailableException(
        REFUSAL
            + "%d, newer than version %d, the newest this release"
            + " knows: an older release runs against the schema a newer one migrated. Nothing was"
            + " read or changed; deploy the release that migrated the schema, or a newer one",
        schemaVersion,
        newest);
  }

  /**
   * Whether {@code error} is this check's refusal: its message names no host or driver detail, so
   * even the unauthenticated readiness probe may show it.
   */
  public static boolean refused(Throwable error) {
    return error instanceof ServiceUnavailableException
        && error.getMessage() != null
        && error.getMessage().startsWith(REFUSAL);
  }

  /** The highest version schema_migration records. */
  private static int highestApplied(Connection connection) throws SQLException {
    // in autocommit, as a connection comes from its factory: no transaction is left open
    try (Statement statement = connection.createStatement();
        ResultSet rs =
            statement.executeQuery("SELECT coalesce(max(version), 0) FROM schema_migration")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
