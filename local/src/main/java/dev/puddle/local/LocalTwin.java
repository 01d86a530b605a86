package dev.puddle.local;

import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.MetastoreKeySet;
import dev.puddle.core.auth.TokenEndpoint;
import dev.puddle.core.auth.TokenIssuer;
import dev.puddle.core.auth.TrustedIssuer;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Migrations;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.SigningKeys;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.metastore.access.RealmBootstrap;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.signing.RequestSigner;
import dev.puddle.core.storage.Storage;
import dev.puddle.core.vending.CredentialCache;
import dev.puddle.core.vending.CredentialVendor;
import dev.puddle.functions.CatalogHandler;
import dev.puddle.functions.CatalogWiring;
import dev.puddle.functions.RequestLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.rest.auth.OAuth2Properties;

/**
 * Puddle on one machine: an embedded PostgreSQL, S3 and SQS server on loopback, the data of the
 * first two in one directory, the Lambda catalog handler behind a local HTTP endpoint that plays
 * API Gateway, and the purge handler fed from the purge queue (see {@link LocalPurge}).
 */
public final class LocalTwin implements AutoCloseable {
  public static final String REALM = "default";
  public static final String WAREHOUSE = "default";
  public static final String BUCKET = "warehouse";

  /**
   * Where and how the twin listens, how it purges, the root credential of its realm (null: keep the
   * one it has, or generate one on first start), how its PostgreSQL commits and where its request
   * lines go. Port 0 picks a free port.
   */
  public record Options(
      Path dataDirectory,
      String bind,
      int port,
      int s3Port,
      int postgresPort,
      int sqsPort,
      LocalPurge.Options purge,
      PrincipalCredential rootCredential,
      LocalPostgres.Durability durability,
      RequestLog requestLog) {
    /** Options with durable commits and a text line per request on standard output. */
    public Options(
        Path dataDirectory,
        String bind,
        int port,
        int s3Port,
        int postgresPort,
        int sqsPort,
        LocalPurge.Options purge,
        PrincipalCredential rootCredential) {
      this(
          dataDirectory,
          bind,
          port,
          s3Port,
          postgresPort,
          sqsPort,
          purge,
          rootCredential,
          LocalPostgres.Durability.DURABLE,
          RequestLog.text(System.out, ZoneId.systemDefault()));
    }

    /** Options with SQS on a free port and the purge's defaults. */
    public Options(Path dataDirectory, String bind, int port, int s3Port, int postgresPort) {
      this(dataDirectory, bind, port, s3Port, postgresPort, 0, LocalPurge.Options.DEFAULTS);
    }

    /** Options that keep the realm's root credential, or generate one on first start. */
    public Options(
        Path dataDirectory,
        String bind,
        int port,
        int s3Port,
        int postgresPort,
        int sqsPort,
        LocalPurge.Options purge) {
      this(dataDirectory, bind, port, s3Port, postgresPort, sqsPort, purge, null);
    }
  }

  /** How long the twin's vended credentials last, as an STS session does by default. */
  public static final Duration VENDED_CREDENTIALS_LIFETIME = Duration.ofHours(1);

  private static final int CONNECTIONS = 16;
  private static final int DRAIN_SECONDS = 25;

  private final LocalPostgres postgres;
  private final LocalS3 s3;
  private final Database.ConnectionFactory connections;
  private final LocalPurge purge;
  private final LocalEvents events;
  private final Database database;
  private final Storage storage;
  private final CredentialVendor vendor;
  private final CatalogHandler handler;
  private final HttpFront http;
  private final InFlight inFlight;
  private final RealmBootstrap.Result root;
  private final LocalRecovery recovery;

  private LocalTwin(
      LocalPostgres postgres,
      LocalS3 s3,
      Database.ConnectionFactory connections,
      LocalPurge purge,
      LocalEvents events,
      Database database,
      Storage storage,
      CredentialVendor vendor,
      CatalogHandler handler,
      HttpFront http,
      InFlight inFlight,
      RealmBootstrap.Result root,
      LocalRecovery recovery) {
    this.postgres = postgres;
    this.s3 = s3;
    this.connections = connections;
    this.purge = purge;
    this.events = events;
    this.database = database;
    this.storage = storage;
    this.vendor = vendor;
    this.handler = handler;
    this.http = http;
    this.inFlight = inFlight;
    this.root = root;
    this.recovery = recovery;
  }

  /** Starts the twin, its catalog reaching its PostgreSQL over JDBC. */
  public static LocalTwin start(Options options) {
    return start(
        options,
        postgres -> PostgresConnections.factory(postgres.jdbcUrl(), postgres.user(), null));
  }

  /**
   * Starts the twin with the catalog reaching its PostgreSQL through the connections {@code
   * metastore} makes for it, e.g. through the RDS Data API instead of JDBC. Connections that are
   * {@link AutoCloseable} are closed with the twin. Every request but the probes and the token
   * endpoint needs a token of the twin's issuer, which signs with a key kept in the data directory
   * ({@link LocalSigningKeys}) and checks the realm's principals' credentials.
   */
  public static LocalTwin start(
      Options options, Function<LocalPostgres, Database.ConnectionFactory> metastore) {
    Path data = options.dataDirectory().toAbsolutePath();
    LocalPostgres postgres =
        LocalPostgres.start(data.resolve("postgres"), options.postgresPort(), options.durability());
    LocalS3 s3 = null;
    Database.ConnectionFactory connections = null;
    LocalPurge purge = null;
    LocalEvents events = null;
    try {
      s3 = LocalS3.start(data.resolve("s3"), options.bind(), options.s3Port());
      s3.ensureBucket(BUCKET);
      connections = metastore.apply(postgres);
      Database database = new Database(connections, CONNECTIONS);
      Migrations.migrate(database);
      RealmBootstrap.Result root =
          new RealmBootstrap(database).bootstrap(REALM, options.rootCredential());
      new Warehouses(database)
          .ensure(REALM, WAREHOUSE, "s3://" + BUCKET + "/" + WAREHOUSE, Map.of());
      Storage storage =
          Storage.s3Compatible(
              s3.endpoint(), LocalS3.REGION, LocalS3.ACCESS_KEY_ID, LocalS3.SECRET_ACCESS_KEY);
      purge =
          LocalPurge.start(options.bind(), options.sqsPort(), options.purge(), database, storage);
      events = LocalEvents.start(purge.sqs(), options.purge(), database);
      TokenIssuer.Settings tokenSettings =
          new TokenIssuer.Settings(
              TokenIssuer.Settings.DEFAULT_ISSUER,
              TokenIssuer.Settings.DEFAULT_AUDIENCE,
              TokenIssuer.Settings.DEFAULT_LIFETIME);
      LocalSigningKeys signingKeys = LocalSigningKeys.in(data);
      CredentialVendor vendor =
          new CredentialCache(
              new LocalCredentialVendor(s3, VENDED_CREDENTIALS_LIFETIME), Clock.systemUTC());
      // the same wiring, hooks and priming as a deployed function, over the twin's parts
      CatalogHandler handler =
          CatalogHandler.primed(
              CatalogWiring.Parts.allGroups(
                  new CatalogApi.Settings(REALM, WAREHOUSE),
                  connections,
                  CONNECTIONS,
                  storage,
                  catalogDatabase -> ownTokens(tokenSettings, catalogDatabase),
                  catalogDatabase ->
                      new TokenEndpoint(
                          new TokenIssuer(
                              tokenSettings,
                              signingKeys,
                              new SigningKeys(catalogDatabase),
                              Clock.systemUTC()),
                          new Principals(catalogDatabase),
                          ownTokens(tokenSettings, catalogDatabase)),
                  purge.queue(),
                  purge.planningQueue(),
                  events.queue(),
                  vendor,
                  s3.requestSigner(),
                  options.requestLog()));
      InFlight inFlight = new InFlight();
      HttpFront http =
          HttpFront.start(
              options.bind(), options.port(), CONNECTIONS, new ApiGatewayBridge(handler, inFlight));
      return new LocalTwin(
          postgres,
          s3,
          connections,
          purge,
          events,
          database,
          storage,
          vendor,
          handler,
          http,
          inFlight,
          root,
          LocalRecovery.start(database, storage));
    } catch (IOException e) {
      closeQuietly(events);
      closeQuietly(purge);
      closeQuietly(connections);
      closeQuietly(s3);
      postgres.close();
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      closeQuietly(events);
      closeQuietly(purge);
      closeQuietly(connections);
      closeQuietly(s3);
      postgres.close();
      throw e;
    }
  }

  /** The twin's issuer: tokens it signed, with a key the metastore publishes. */
  private static JwtAuthenticator ownTokens(TokenIssuer.Settings settings, Database database) {
    return new JwtAuthenticator(
        List.of(
            new TrustedIssuer(
                settings.verification(), new MetastoreKeySet(new SigningKeys(database)))),
        JwtAuthenticator.DEFAULT_CLOCK_SKEW,
        Clock.systemUTC());
  }

  /** The catalog URI engines use. */
  public String uri() {
    return http.uri();
  }

  /**
   * The properties an engine needs besides its {@code credential} (storage ones are also served as
   * defaults by /v1/config).
   */
  public Map<String, String> clientProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("uri", uri());
    properties.put("warehouse", WAREHOUSE);
    properties.put(OAuth2Properties.OAUTH2_SERVER_URI, uri() + "/v1/oauth/tokens");
    properties.put(OAuth2Properties.SCOPE, "PRINCIPAL_ROLE:ALL");
    properties.putAll(storage.clientProperties());
    return properties;
  }

  /**
   * What bootstrapping the realm did at this start: root's client id, and its secret if it was
   * generated now.
   */
  public RealmBootstrap.Result root() {
    return root;
  }

  public String s3Endpoint() {
    return s3.endpoint();
  }

  /** The event relay: its queue, and the queue its CloudEvents are published to. */
  public LocalEvents events() {
    return events;
  }

  /** The scheduled catalog export and the rebuild from the warehouse. */
  public LocalRecovery recovery() {
    return recovery;
  }

  /** The purge queue, its dead-letter queue and the SQS server they live on. */
  public LocalPurge purge() {
    return purge;
  }

  /** The metastore, for tests and tools that inspect it. */
  public Database database() {
    return database;
  }

  /**
   * How the catalog reaches the metastore: JDBC connections, or {@link LocalDataApiConnections} in
   * data-api mode.
   */
  public Database.ConnectionFactory metastoreConnections() {
    return connections;
  }

  public String jdbcUrl() {
    return postgres.jdbcUrl();
  }

  public Storage storage() {
    return storage;
  }

  /**
   * The twin's credential vendor (its S3 server's temporary keys, cached), for catalogs that vend
   * to other callers or under another access model.
   */
  public CredentialVendor credentialVendor() {
    return vendor;
  }

  /** What signs engines' S3 requests under the twin's S3 identity, for catalogs that sign. */
  public RequestSigner requestSigner() {
    return s3.requestSigner();
  }

  /**
   * Stops cleanly: new requests are turned away, requests in flight finish (up to 25 s), then the
   * listener closes, the purge finishes the batch in progress, connections close and PostgreSQL, S3
   * and SQS shut down. The drain is counted by the requests themselves, each until its response is
   * sent, so the listener closes as soon as the last one is done.
   */
  @Override
  public void close() {
    try {
      inFlight.drain(Duration.ofSeconds(DRAIN_SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    http.close();
    closeQuietly(recovery);
    closeQuietly(events);
    closeQuietly(purge);
    handler.close();
    database.close();
    closeQuietly(connections);
    storage.close();
    closeQuietly(s3);
    postgres.close();
  }

  private static void closeQuietly(Object resource) {
    if (!(resource instanceof AutoCloseable closeable)) {
      return;
    }
    try {
      closeable.close();
    } catch (Exception ignored) {
      // shutting down anyway
    }
  }
}
