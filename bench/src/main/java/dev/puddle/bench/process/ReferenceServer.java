package dev.puddle.bench.process;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Apache Iceberg's reference REST server ({@code org.apache.iceberg.rest.RESTCatalogServer} from
 * {@code iceberg-open-api}'s test fixtures) in a child JVM, configured through its own {@code
 * CATALOG_*} environment variables: a {@code JdbcCatalog} on the database {@code reference} of the
 * twin's PostgreSQL, its warehouse on the twin's S3.
 *
 * <p>RESTCatalogServer offers no bind address: its Jetty listens on every interface, on a free port
 * the runner picks. The runner only ever connects to it on loopback.
 */
public final class ReferenceServer implements AutoCloseable {
  public static final String MAIN_CLASS = "org.apache.iceberg.rest.RESTCatalogServer";
  public static final String DATABASE = "reference";
  public static final String WAREHOUSE_LOCATION = "s3://" + PuddleTwin.BUCKET + "/reference";

  private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final ChildJvm jvm;
  private final int port;

  private ReferenceServer(ChildJvm jvm, int port) {
    this.jvm = jvm;
    this.port = port;
  }

  /**
   * Creates the reference database in the twin's PostgreSQL, then starts the server with the
   * runner's own class path and waits until {@code GET /v1/config} answers.
   *
   * @param connections the JdbcCatalog's connection pool size
   * @param keepOutput whether its standard output is kept in its log
   */
  public static ReferenceServer start(
      PuddleTwin twin,
      List<String> jvmOptions,
      int connections,
      boolean keepOutput,
      Path runDirectory) {
    createDatabase(twin);
    int port = FreePorts.next();
    Map<String, String> env = new LinkedHashMap<>();
    // RESTCatalogServer reads CATALOG_*: "__" becomes "-", "_" becomes ".", lowercased
    env.put("CATALOG_REST_PORT", String.valueOf(port));
    env.put("CATALOG_URI", twin.jdbcUrl(DATABASE));
    env.put("CATALOG_JDBC_USER", "postgres");
    env.put("CATALOG_JDBC_SCHEMA__VERSION", "V1");
    env.put("CATALOG_CLIENTS", String.valueOf(connections));
    env.put("CATALOG_WAREHOUSE", WAREHOUSE_LOCATION);
    env.put("CATALOG_IO__IMPL", "org.apache.iceberg.aws.s3.S3FileIO");
    env.put("CATALOG_S3_ENDPOINT", twin.s3Endpoint());
    env.put("CATALOG_S3_PATH__STYLE__ACCESS", "true");
    env.put("CATALOG_S3_ACCESS__KEY__ID", PuddleTwin.ACCESS_KEY_ID);
    env.put("CATALOG_S3_SECRET__ACCESS__KEY", PuddleTwin.SECRET_ACCESS_KEY);
    env.put("CATALOG_CLIENT_REGION", PuddleTwin.REGION);
    List<String> arguments =
        PuddleTwin.concat(
            jvmOptions, List.of("-cp", System.getProperty("java.class.path"), MAIN_CLASS));
    ChildJvm jvm =
        ChildJvm.startServer(
            "reference-server",
            arguments,
            env,
            runDirectory.resolve("logs/reference-server.log"),
            keepOutput);
    ReferenceServer server = new ReferenceServer(jvm, port);
    try {
      jvm.awaitReady(server::answersConfig, START_TIMEOUT);
      return server;
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  public String uri() {
    return "http://127.0.0.1:" + port;
  }

  private static void createDatabase(PuddleTwin twin) {
    try (Connection connection =
            DriverManager.getConnection(twin.jdbcUrl("postgres"), "postgres", null);
        PreparedStatement exists =
            connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
      exists.setString(1, DATABASE);
      try (ResultSet rows = exists.executeQuery()) {
        if (rows.next()) {
          return;
        }
      }
      try (Statement create = connection.createStatement()) {
        create.execute("CREATE DATABASE " + DATABASE);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot create the reference database", e);
    }
  }

  private boolean answersConfig() {
    HttpRequest config =
        HttpRequest.newBuilder(URI.create(uri() + "/v1/config"))
            .timeout(Duration.ofSeconds(5))
            .build();
    try {
      return HTTP.send(config, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false; // not listening yet
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the reference server", e);
    }
  }

  @Override
  public void close() {
    jvm.close();
  }
}
