package dev.puddle.functions;

import dev.puddle.contract.FunctionGroup;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.PrimingIssuer;
import dev.puddle.core.auth.TokenEndpoint;
import dev.puddle.core.events.EventRelayQueue;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.DatabaseCredentials;
import dev.puddle.core.metastore.SchemaVersionCheck;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.purge.PurgeQueue;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.signing.RequestSigner;
import dev.puddle.core.storage.Storage;
import dev.puddle.core.vending.CredentialCache;
import dev.puddle.core.vending.CredentialVendor;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * The parts of a catalog function built once per execution environment: the function itself, and
 * what its SnapStart hooks prime and reset (connections, cached logins, vended credentials). A
 * function reads its {@link Parts} from its environment variables; the local twin gives its own.
 * Nothing here opens a connection or calls AWS: that happens on the first request.
 */
public record CatalogWiring(
    CatalogFunction function,
    Priming priming,
    CatalogApi api,
    Database database,
    DatabaseCredentials credentials,
    JwtAuthenticator authenticator) {
  private static final Set<FunctionGroup> HTTP_GROUPS =
      EnumSet.of(
          FunctionGroup.READ,
          FunctionGroup.WRITE,
          FunctionGroup.SIGN,
          FunctionGroup.TOKEN,
          FunctionGroup.ADMIN);

  /**
   * What a catalog function is made of, however its settings were read. The metastore's connections
   * are opened through a gate that priming shuts, the first of them checking the schema's version
   * ({@link SchemaVersionCheck}); the parts that read the metastore are made over the function's
   * own {@link Database}.
   *
   * @param tokens the token endpoint over the function's database, or null if it issues none
   * @param purgeQueue where drops with purge send their jobs, or null: the sweep sends them
   * @param planningQueue where submitted scan plans send their jobs, or null: the sweep sends them
   * @param eventRelayQueue where committed changes nudge the event relay, or null: the event sweep
   *     nudges it
   * @param credentialVendor what vends storage credentials, or null: none are vended
   * @param requestSigner what signs engines' S3 requests (remote signing), or null: none are
   */
  public record Parts(
      Set<FunctionGroup> groups,
      CatalogApi.Settings settings,
      Database.ConnectionFactory connections,
      int maxConnections,
      DatabaseCredentials credentials,
      Storage storage,
      Function<Database, JwtAuthenticator> authenticator,
      Function<Database, TokenEndpoint> tokens,
      PurgeQueue purgeQueue,
      PurgeQueue planningQueue,
      EventRelayQueue eventRelayQueue,
      CredentialVendor credentialVendor,
      RequestSigner requestSigner,
      Duration requestTimeout,
      Duration deadlineMargin,
      int gzipMinBytes,
      RequestLog log) {
    public Parts {
      groups = Set.copyOf(groups);
    }

    /** Every HTTP group at once, with API Gateway's limits, logging to {@code log}: the twin. */
    public static Parts allGroups(
        CatalogApi.Settings settings,
        Database.ConnectionFactory connections,
        int maxConnections,
        Storage storage,
        Function<Database, JwtAuthenticator> authenticator,
        Function<Database, TokenEndpoint> tokens,
        PurgeQueue purgeQueue,
        PurgeQueue planningQueue,
        EventRelayQueue eventRelayQueue,
        CredentialVendor credentialVendor,
        RequestSigner requestSigner,
        RequestLog log) {
      return new Parts(
          HTTP_GROUPS,
          settings,
          connections,
          maxConnections,
          DatabaseCredentials.fixed(null, null),
          storage,
          authenticator,
          tokens,
          purgeQueue,
          planningQueue,
          eventRelayQueue,
          credentialVendor,
          requestSigner,
          Duration.ofSeconds(30),
          Duration.ofSeconds(2),
          ResponseEncoding.DEFAULT_MIN_BYTES,
          log);
    }
  }

  static CatalogWiring fromEnvironment(Map<String, String> variables) {
    Environment env = new Environment(variables);
    FunctionGroup group = env.group();
    if (!HTTP_GROUPS.contains(group)) {
      throw new IllegalStateException(
          "The catalog handler serves the read, write, sign, token and admin groups, not " + group);
    }
    DatabaseCredentials credentials = env.credentials();
    AuthEnvironment auth = new AuthEnvironment(variables);
    return of(
        new Parts(
            EnumSet.of(group),
            new CatalogApi.Settings(
                env.realm(), env.defaultWarehouse(), env.idempotencyKeyLifetime()),
            env.connections(credentials),
            env.maxConnections(),
            credentials,
            env.storage(),
            // every request but the probes and the token endpoint carries a token of a trusted
            // issuer
            auth::authenticator,
            database ->
                group == FunctionGroup.TOKEN
                    ? new TokenEndpoint(
                        auth.tokenIssuer(database, env.secretsManager()),
                        new Principals(database),
                        auth.ownTokens(database))
                    : null,
            PurgeEnvironment.queueOrNull(variables),
            PlanningEnvironment.queueOrNull(variables),
            EventsEnvironment.queueOrNull(variables),
            env.credentialVendor(() -> DefaultCredentialsProvider.builder().build()),
            env.requestSigner(() -> DefaultCredentialsProvider.builder().build()),
            env.requestTimeout(),
            env.deadlineMargin(),
            env.gzipMinBytes(),
            RequestLog.embeddedMetrics(env.metricsNamespace(), System.out)));
  }

  /** The one place a catalog function's object graph is built. */
  public static CatalogWiring of(Parts parts) {
    // priming's shut gate comes first, so a snapshot holds no connection and no checked version
    ConnectionGate gate = new ConnectionGate(new SchemaVersionCheck(parts.connections()));
    Database database = new Database(gate, parts.maxConnections());
    JwtAuthenticator authenticator = parts.authenticator().apply(database);
    CatalogApi api =
        CatalogApi.builder(parts.settings(), database, parts.storage())
            .authenticator(authenticator)
            .purgeQueue(parts.purgeQueue())
            .planningQueue(parts.planningQueue())
            .eventRelayQueue(parts.eventRelayQueue())
            .tokens(parts.tokens().apply(database))
            .credentialVendor(
                parts.credentialVendor() == null
                    ? null
                    : new CredentialCache(parts.credentialVendor(), Clock.systemUTC()))
            .requestSigner(parts.requestSigner())
            .build();
    CatalogFunction function =
        new CatalogFunction(
            api,
            new CatalogFunction.Options(
                parts.groups(),
                parts.settings().realm(),
                parts.requestTimeout(),
                parts.deadlineMargin(),
                parts.gzipMinBytes()),
            parts.log());
    return new CatalogWiring(
        function,
        new Priming(
            function,
            parts.groups(),
            gate,
            authenticator,
            parts.settings().realm(),
            () -> {
              parts.storage().prime();
              if (parts.requestSigner() != null) {
                parts.requestSigner().prime();
              }
            }),
        api,
        database,
        parts.credentials(),
        authenticator);
  }

  /** SnapStart, before the snapshot: prime, and hold no connection in it. */
  String beforeCheckpoint() {
    return beforeCheckpoint(priming.newIssuer());
  }

  /** {@link #beforeCheckpoint()} with the given priming issuer, trusted while priming runs. */
  String beforeCheckpoint(PrimingIssuer issuer) {
    String primed = priming.run(issuer);
    database.closeIdleConnections();
    return primed;
  }

  /**
   * SnapStart, after a restore: the snapshot's connections are dead and its cached logins, keys,
   * vended credentials and AWS credentials belong to another time, so drop them.
   */
  void afterRestore() {
    api.afterRestore();
    credentials.forget();
    function.restored();
  }
}
