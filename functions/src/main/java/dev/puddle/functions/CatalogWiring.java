package dev.puddle.functions;

import dev.puddle.core.access.AccessQuery;
import dev.puddle.core.access.GrantedDataAccess;
import dev.puddle.core.api.FunctionGroup;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.PrimingIssuer;
import dev.puddle.core.auth.TokenEndpoint;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.DatabaseCredentials;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.vending.CredentialCache;
import dev.puddle.core.vending.CredentialVending;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * The parts of a catalog function built once per execution environment from its environment
 * variables: the function itself, and what its SnapStart hooks prime and reset (connections, cached
 * logins, vended credentials). Nothing here opens a connection or calls AWS: that happens on the
 * first request.
 */
record CatalogWiring(
    CatalogFunction function,
    Priming priming,
    Database database,
    DatabaseCredentials credentials,
    JwtAuthenticator authenticator,
    TokenEndpoint tokens,
    CredentialVending vending) {
  private static final Set<FunctionGroup> HTTP_GROUPS =
      EnumSet.of(FunctionGroup.READ, FunctionGroup.WRITE, FunctionGroup.TOKEN, FunctionGroup.ADMIN);

  static CatalogWiring fromEnvironment(Map<String, String> variables) {
    Environment env = new Environment(variables);
    FunctionGroup group = env.group();
    if (!HTTP_GROUPS.contains(group)) {
      throw new IllegalStateException(
          "The catalog handler serves the read, write, token and admin groups, not " + group);
    }
    DatabaseCredentials credentials = env.credentials();
    ConnectionGate gate = new ConnectionGate(env.connections(credentials));
    Database database = new Database(gate, env.maxConnections());
    AuthEnvironment auth = new AuthEnvironment(variables);
    // every request but the probes and the token endpoint carries a token of a trusted issuer
    JwtAuthenticator authenticator = auth.authenticator(database);
    TokenEndpoint tokens =
        group == FunctionGroup.TOKEN
            ? new TokenEndpoint(
                auth.tokenIssuer(database, env.secretsManager()),
                new Principals(database),
                auth.ownTokens(database))
            : null;
    CredentialVending vending =
        new CredentialVending(
            new CredentialCache(
                env.credentialVendor(() -> DefaultCredentialsProvider.builder().build()),
                Clock.systemUTC()),
            new GrantedDataAccess(new AccessQuery(database)));
    CatalogApi api =
        new CatalogApi(
            new CatalogApi.Settings(
                env.realm(), env.defaultWarehouse(), env.idempotencyKeyLifetime()),
            database,
            env.storage(),
            PurgeEnvironment.queueOrNull(variables),
            authenticator,
            tokens,
            vending);
    CatalogFunction function =
        new CatalogFunction(
            api,
            new CatalogFunction.Options(
                EnumSet.of(group),
                env.realm(),
                env.requestTimeout(),
                env.deadlineMargin(),
                env.gzipMinBytes()),
            new RequestLog(env.metricsNamespace(), System.out));
    return new CatalogWiring(
        function,
        new Priming(function, EnumSet.of(group), gate, authenticator, env.realm()),
        database,
        credentials,
        authenticator,
        tokens,
        vending);
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
    database.closeIdleConnections();
    credentials.forget();
    authenticator.clear();
    if (tokens != null) {
      tokens.clear();
    }
    vending.forget();
    function.restored();
  }
}
