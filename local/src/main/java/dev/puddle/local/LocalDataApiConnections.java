package dev.puddle.local;

import dev.puddle.core.metastore.ForwardingConnectionFactory;
import dev.puddle.core.metastore.dataapi.DataApiConnections;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The twin's metastore connections in {@code data-api} mode: Puddle's Data API adapter ({@link
 * DataApiConnections}, with the AWS SDK's {@code RdsDataClient}) against a {@link LocalDataApi} in
 * front of the twin's PostgreSQL. Migrations, the catalog, the purge and the token endpoint all
 * reach the metastore this way, as the functions do with {@code PUDDLE_DB_MODE=data-api}. Both are
 * started together and closed together (the twin closes its connections when it stops).
 */
public final class LocalDataApiConnections extends ForwardingConnectionFactory
    implements AutoCloseable {
  private final LocalDataApi dataApi;
  private final DataApiConnections connections;

  private LocalDataApiConnections(LocalDataApi dataApi, DataApiConnections connections) {
    super(connections);
    this.dataApi = dataApi;
    this.connections = connections;
  }

  /**
   * Starts a Data API stand-in on a free loopback port for {@code postgres}, for {@link
   * LocalTwin#start(LocalTwin.Options, java.util.function.Function)}.
   */
  public static LocalDataApiConnections start(LocalPostgres postgres) {
    try {
      LocalDataApi dataApi = LocalDataApi.start(postgres.jdbcUrl(), postgres.user());
      return new LocalDataApiConnections(dataApi, dataApi.connections());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The stand-in these connections call. */
  public LocalDataApi dataApi() {
    return dataApi;
  }

  @Override
  public void close() {
    connections.close();
    dataApi.close();
  }
}
