package dev.puddle.bench;

import dev.puddle.bench.process.PuddleTwin;
import dev.puddle.bench.process.ReferenceServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.auth.OAuth2Properties;

/**
 * The two catalogs under test, each in a child JVM, and a {@link Side} for each: Puddle's local
 * twin and Iceberg's reference server on the twin's PostgreSQL and S3. {@link #close()} stops them
 * once, whether the run ends or is interrupted.
 */
public final class Catalogs implements AutoCloseable {

  private volatile PuddleTwin twin;
  private volatile ReferenceServer reference;
  private volatile Side puddleSide;
  private volatile Side referenceSide;
  private boolean closed;

  private Catalogs() {}

  /**
   * Starts both servers; a shutdown hook stops them if the runner is interrupted.
   *
   * @param referenceConnections the reference JdbcCatalog's connection pool
   * @param pageSize the clients' {@code rest-page-size}
   * @param keepServerOutput whether the servers' standard output is kept in their logs
   */
  public static Catalogs start(
      Path twinJar, int referenceConnections, int pageSize, boolean keepServerOutput, Path run) {
    Catalogs catalogs = new Catalogs();
    Runtime.getRuntime().addShutdownHook(new Thread(catalogs::close, "stop-catalogs"));
    try {
      Progress.report("starting Puddle's local twin");
      catalogs.twin = PuddleTwin.start(twinJar, List.of(), keepServerOutput, run);
      Progress.report("starting the reference server");
      catalogs.reference =
          ReferenceServer.start(
              catalogs.twin, List.of(), referenceConnections, keepServerOutput, run);
      Map<String, String> client = clientProperties(catalogs.twin, pageSize);
      // Puddle wants a token, as engines get one: the client-credentials flow, once per client
      Map<String, String> signedIn = new HashMap<>(client);
      signedIn.put(
          OAuth2Properties.CREDENTIAL,
          PuddleTwin.ROOT_CLIENT_ID + ":" + PuddleTwin.ROOT_CLIENT_SECRET);
      signedIn.put(OAuth2Properties.OAUTH2_SERVER_URI, catalogs.twin.uri() + "/v1/oauth/tokens");
      signedIn.put(OAuth2Properties.SCOPE, "PRINCIPAL_ROLE:ALL");
      catalogs.puddleSide =
          new Side(
              "Puddle",
              catalogs.twin.uri(),
              Optional.of(PuddleTwin.WAREHOUSE),
              PuddleTwin.WAREHOUSE_LOCATION,
              signedIn);
      catalogs.referenceSide =
          new Side(
              "reference",
              catalogs.reference.uri(),
              Optional.empty(),
              ReferenceServer.WAREHOUSE_LOCATION,
              client);
      return catalogs;
    } catch (RuntimeException e) {
      catalogs.close();
      throw e;
    }
  }

  public PuddleTwin twin() {
    return twin;
  }

  public Side puddle() {
    return puddleSide;
  }

  public Side reference() {
    return referenceSide;
  }

  /** The same client properties on both sides: the twin's S3 for data and metadata files. */
  private static Map<String, String> clientProperties(PuddleTwin twin, int pageSize) {
    return Map.of(
        CatalogProperties.FILE_IO_IMPL,
        S3FileIO.class.getName(),
        S3FileIOProperties.ENDPOINT,
        twin.s3Endpoint(),
        S3FileIOProperties.PATH_STYLE_ACCESS,
        "true",
        S3FileIOProperties.ACCESS_KEY_ID,
        PuddleTwin.ACCESS_KEY_ID,
        S3FileIOProperties.SECRET_ACCESS_KEY,
        PuddleTwin.SECRET_ACCESS_KEY,
        AwsClientProperties.CLIENT_REGION,
        PuddleTwin.REGION,
        RESTCatalogProperties.PAGE_SIZE,
        String.valueOf(pageSize));
  }

  /** Closes the clients, then the reference server, then the twin it depends on. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (AutoCloseable resource :
        new AutoCloseable[] {puddleSide, referenceSide, reference, twin}) {
      if (resource != null) {
        try {
          resource.close();
        } catch (Exception e) {
          Progress.report("while stopping: " + e);
        }
      }
    }
  }
}
