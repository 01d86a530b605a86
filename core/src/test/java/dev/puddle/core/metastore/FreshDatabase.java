package dev.puddle.core.metastore;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test a database of its own, migrated to the newest schema, as Lakekeeper's {@code
 * #[sqlx::test]} does: one embedded PostgreSQL cluster for the test run, one migrated template
 * database in it, and per test a {@code CREATE DATABASE … TEMPLATE} copy (a file copy, a few
 * milliseconds), dropped after the test. Tests take a {@link Database} parameter.
 */
public final class FreshDatabase implements ParameterResolver, AfterEachCallback {
  private static final String TEMPLATE = "puddle_template";
  private static final AtomicInteger NEXT = new AtomicInteger();
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(FreshDatabase.class);

  /** The cluster and its template, started once for the whole run and stopped at its end. */
  private static final class Cluster implements AutoCloseable {
    private final EmbeddedPostgres postgres;

    Cluster() {
      try {
        // throwaway data: nothing needs to survive a crash, so nothing waits for the disk
        postgres =
            EmbeddedPostgres.builder()
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .setServerConfig("full_page_writes", "off")
                .start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      execute("CREATE DATABASE " + TEMPLATE);
      try (Database template = open(TEMPLATE)) {
        Migrations.migrate(template);
      }
    }

    Database open(String name) {
      return new Database(
          PostgresConnections.factory(postgres.getJdbcUrl("postgres", name), "postgres", null), 4);
    }

    void execute(String sql) {
      try (Connection connection = postgres.getPostgresDatabase().getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute(sql);
      } catch (SQLException e) {
        throw new IllegalStateException(sql, e);
      }
    }

    @Override
    public void close() throws IOException {
      postgres.close();
    }
  }

  /** A test's database and its name. */
  private record Fresh(String name, Database database) {}

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Database.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    // the test method's store: its @BeforeEach methods and the test itself get the same database
    return context
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            Fresh.class,
            key -> {
              Cluster cluster = cluster(context);
              String name = "test_" + NEXT.incrementAndGet();
              cluster.execute("CREATE DATABASE " + name + " TEMPLATE " + TEMPLATE);
              return new Fresh(name, cluster.open(name));
            },
            Fresh.class)
        .database();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Fresh fresh = context.getStore(NAMESPACE).remove(Fresh.class, Fresh.class);
    if (fresh != null) {
      fresh.database().close();
      cluster(context).execute("DROP DATABASE " + fresh.name() + " WITH (FORCE)");
    }
  }

  private static Cluster cluster(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(Cluster.class, key -> new Cluster(), Cluster.class);
  }
}
