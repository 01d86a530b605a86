package dev.puddle.local;

import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Migrations;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.RealmBootstrap;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.functions.CatalogHandler;
import dev.puddle.functions.RequestLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneId;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;

/**
 * The local twins shared by the tests of a JVM, one per metastore access mode, on free ports, with
 * their data in temporary directories. Each test takes a fresh warehouse, so tests never see each
 * other's namespaces.
 *
 * <p>In {@link Mode#DATA_API} the catalog reaches PostgreSQL through the RDS Data API: the real SDK
 * client against {@link LocalDataApi}, the twin's stand-in for the Data API, which runs the
 * statements on the twin's PostgreSQL ({@link LocalDataApiConnections}, as {@code --metastore
 * data-api} does). Migrations, the catalog, the purge and the tests' own queries all go that way.
 *
 * <p>Their purge runs on short timings, so that redeliveries and the dead-letter queue come within
 * seconds: a 3 s function time limit, a 4 s visibility timeout, three receives.
 */
public final class TestTwin {
  /** The purge timings of the shared twins. */
  public static final LocalPurge.Options PURGE =
      new LocalPurge.Options(
          Duration.ofSeconds(3),
          Duration.ofSeconds(4),
          3,
          Duration.ofSeconds(30),
          LocalPurge.Options.DEFAULTS.sweep(),
          MaintenanceOutbox.Settings.DEFAULTS);

  /** How the twin's catalog reaches its PostgreSQL. */
  public enum Mode {
    JDBC,
    DATA_API
  }

  /** The credential of the realm's root principal in the shared twins. */
  public static final PrincipalCredential ROOT =
      new PrincipalCredential("test-root", "test-root-secret-not-for-production");

  private static final AtomicInteger WAREHOUSES = new AtomicInteger();
  private static final Map<Mode, TestTwin> TWINS = new EnumMap<>(Mode.class);

  private final LocalTwin twin;
  private final LocalDataApi dataApi;

  private TestTwin(LocalTwin twin, LocalDataApi dataApi) {
    this.twin = twin;
    this.dataApi = dataApi;
  }

  /** The shared twin of a mode, started on first use and stopped when the JVM exits. */
  public static synchronized TestTwin of(Mode mode) {
    return TWINS.computeIfAbsent(mode, TestTwin::start);
  }

  private static TestTwin start(Mode mode) {
    try {
      Path data = Files.createTempDirectory("puddle-test-");
      // fast commits: the tests' data is thrown away, and durability is CrashIT's to check
      LocalTwin.Options options =
          new LocalTwin.Options(
              data,
              "127.0.0.1",
              0,
              0,
              0,
              0,
              PURGE,
              ROOT,
              LocalPostgres.Durability.FAST,
              RequestLog.text(System.out, ZoneId.systemDefault()));
      TestTwin started;
      if (mode == Mode.JDBC) {
        started = new TestTwin(LocalTwin.start(options), null);
      } else {
        LocalTwin twin = LocalTwin.start(options, LocalDataApiConnections::start);
        started =
            new TestTwin(twin, ((LocalDataApiConnections) twin.metastoreConnections()).dataApi());
      }
      Runtime.getRuntime().addShutdownHook(new Thread(started.twin::close));
      return started;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public LocalTwin local() {
    return twin;
  }

  /** The Data API stand-in of a {@link Mode#DATA_API} twin, e.g. to count its calls. */
  public LocalDataApi dataApi() {
    return dataApi;
  }

  /** Creates a new, empty warehouse with catalog properties and returns its name. */
  public String warehouse(String hint, Map<String, String> properties) {
    String name = hint + "-" + WAREHOUSES.incrementAndGet();
    new Warehouses(twin.database())
        .ensure(LocalTwin.REALM, name, "s3://" + LocalTwin.BUCKET + "/" + name, properties);
    return name;
  }

  /**
   * An access token of the twin's issuer for {@code credential}'s principal with all its roles, as
   * an engine gets one: {@code client_credentials} at the token endpoint.
   */
  public String token(PrincipalCredential credential) {
    String form =
        "grant_type=client_credentials&client_id="
            + URLEncoder.encode(credential.clientId(), StandardCharsets.UTF_8)
            + "&client_secret="
            + URLEncoder.encode(credential.clientSecret(), StandardCharsets.UTF_8)
            + "&scope=PRINCIPAL_ROLE%3AALL";
    HttpResponse<String> response = TwinHttp.at(twin.uri()).tokenForm(form);
    if (response.statusCode() != 200) {
      throw new IllegalStateException("No token: " + response.body());
    }
    return TwinHttp.json(response).get("access_token").asText();
  }

  /** Iceberg's own REST client, pointed at a warehouse of the twin, signed in as root. */
  public RESTCatalog catalog(String warehouse, Map<String, String> extra) {
    Map<String, String> properties = new HashMap<>();
    properties.put(OAuth2Properties.CREDENTIAL, ROOT.clientId() + ":" + ROOT.clientSecret());
    properties.put(OAuth2Properties.SCOPE, "PRINCIPAL_ROLE:ALL");
    properties.putAll(extra);
    return client(twin.uri(), warehouse, properties);
  }

  /**
   * Iceberg's own REST client for a warehouse of the catalog at {@code uri}, which also issues its
   * tokens; with no credential unless {@code extra} gives one.
   */
  public static RESTCatalog client(String uri, String warehouse, Map<String, String> extra) {
    Map<String, String> properties = new HashMap<>();
    properties.put(CatalogProperties.URI, uri);
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse);
    properties.put(OAuth2Properties.OAUTH2_SERVER_URI, uri + "/v1/oauth/tokens");
    properties.putAll(extra);
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("puddle", properties);
    return catalog;
  }

  /**
   * A metastore of its own in the JDBC twin's PostgreSQL, migrated, with the realm bootstrapped
   * (root's credential {@link #ROOT}) and a warehouse {@code warehouse}: for tests that publish
   * signing keys of their own, which would withdraw the twin's.
   */
  public static Metastore separateMetastore(String warehouse) {
    String name = "separate_" + System.nanoTime();
    get()
        .database()
        .autocommit(
            connection -> {
              try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + name);
              }
              return null;
            });
    String jdbcUrl = get().jdbcUrl().replaceFirst("/postgres\\?", "/" + name + "?");
    Database database = new Database(PostgresConnections.factory(jdbcUrl, null, null), 4);
    Migrations.migrate(database);
    new RealmBootstrap(database).bootstrap(LocalTwin.REALM, ROOT);
    new Warehouses(database)
        .ensure(
            LocalTwin.REALM,
            warehouse,
            "s3://" + LocalTwin.BUCKET + "/" + warehouse + "-" + name,
            Map.of());
    return new Metastore(jdbcUrl, database);
  }

  /** A separate metastore: its JDBC URL and its pool, closed with it. */
  public record Metastore(String jdbcUrl, Database database) implements AutoCloseable {
    @Override
    public void close() {
      database.close();
    }
  }

  /** The shared JDBC twin. */
  public static LocalTwin get() {
    return of(Mode.JDBC).local();
  }

  /**
   * A metastore connection of its own to the JDBC twin's database, as a Lambda instance has one.
   */
  public static Database ownDatabase() {
    return new Database(PostgresConnections.factory(get().jdbcUrl(), null, null), 1);
  }

  /**
   * A catalog handler with its own metastore connection and caches, as a Lambda instance of its
   * own, serving the JDBC twin's realm and storage to root.
   */
  public static CatalogHandler rootHandler(Database database, String warehouse) {
    return new CatalogHandler(
        CatalogApi.builder(
                new CatalogApi.Settings(LocalTwin.REALM, warehouse), database, get().storage())
            .authenticator(RootCaller.of(LocalTwin.REALM))
            .build());
  }

  /**
   * A catalog over the JDBC twin's metastore and storage, serving {@code warehouse} of the twin's
   * realm to root; the caller adds what its test needs (a queue, a vendor, a signer) and builds it.
   */
  public static CatalogApi.Builder rootApi(String warehouse) {
    return CatalogApi.builder(
            new CatalogApi.Settings(LocalTwin.REALM, warehouse), get().database(), get().storage())
        .authenticator(RootCaller.of(LocalTwin.REALM));
  }

  /** Runs one statement on the JDBC twin's database behind the catalog's back. */
  public static int admin(String sql) {
    return get()
        .database()
        .autocommit(
            connection -> {
              try (PreparedStatement statement = connection.prepareStatement(sql)) {
                return statement.executeUpdate();
              }
            });
  }

  /** A token of the JDBC twin's issuer for the realm's root principal, with all its roles. */
  public static String rootToken() {
    return of(Mode.JDBC).token(ROOT);
  }

  /** Creates a new, empty warehouse of the JDBC twin and returns its name. */
  public static String newWarehouse(String hint) {
    return newWarehouse(hint, Map.of());
  }

  /** Creates a new, empty warehouse of the JDBC twin with catalog properties. */
  public static String newWarehouse(String hint, Map<String, String> properties) {
    return of(Mode.JDBC).warehouse(hint, properties);
  }

  /** Iceberg's own REST client, pointed at a warehouse of the JDBC twin. */
  public static RESTCatalog restCatalog(String warehouse, Map<String, String> extra) {
    return of(Mode.JDBC).catalog(warehouse, extra);
  }
}
