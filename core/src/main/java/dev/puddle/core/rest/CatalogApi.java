package dev.puddle.core.rest;

import dev.puddle.core.access.AccessQuery;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.RequestScope;
import dev.puddle.core.api.Response;
import dev.puddle.core.api.Route;
import dev.puddle.core.auth.Authenticator;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.auth.JwksEndpoint;
import dev.puddle.core.auth.MetastoreKeySet;
import dev.puddle.core.auth.OAuthError;
import dev.puddle.core.auth.TokenEndpoint;
import dev.puddle.core.catalog.PuddleCatalog;
import dev.puddle.core.catalog.VersionCache;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.IdempotencyKeys;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.metastore.SigningKeys;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.purge.PurgeOutbox;
import dev.puddle.core.purge.PurgeQueue;
import dev.puddle.core.storage.Storage;
import dev.puddle.core.vending.AccessDelegation;
import dev.puddle.core.vending.CredentialVending;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.Arrays;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.responses.ConfigResponse;

/**
 * The Iceberg REST catalog over one metastore and one storage: turns a {@link Request} into a
 * {@link Response}, every failure included. Stateless between requests apart from caches that
 * are safe to lose, so any instance can serve any request.
 */
public final class CatalogApi {
  /**
   * Who the catalog serves: the realm (one until identity arrives) and its default warehouse; and
   * how long an idempotency key is honoured (null: keys are ignored and not advertised).
   */
  public record Settings(String realm, String defaultWarehouse, Duration idempotencyKeyLifetime) {
    /** The default lifetime of idempotency keys, advertised in {@code /v1/config}. */
    public static final Duration DEFAULT_IDEMPOTENCY_KEY_LIFETIME = Duration.ofMinutes(30);

    public Settings(String realm, String defaultWarehouse) {
      this(realm, defaultWarehouse, DEFAULT_IDEMPOTENCY_KEY_LIFETIME);
    }
  }

  private final Settings settings;
  private final Database database;
  private final Warehouses warehouses;
  private final Namespaces namespaces;
  private final CatalogObjects objects;
  private final Storage storage;
  private final VersionCache<TableMetadata> parsedMetadata = VersionCache.ofHeapShare();
  private final NamespaceEndpoints namespaceEndpoints;
  private final TableEndpoints tableEndpoints;
  private final ViewEndpoints viewEndpoints;
  private final PurgeOutbox purges;
  private final PurgeJobEndpoints purgeJobEndpoints;
  private final IdempotentRequests idempotency;
  private final Authenticator authenticator;
  private final TokenEndpoint tokens;
  private final JwksEndpoint jwks;
  private final CredentialEndpoints credentialEndpoints;
  private final AccessQuery access;
  private final ManagementEndpoints managementEndpoints;

  /**
   * A catalog whose callers {@code authenticator} establishes, issuing no tokens and vending no
   * credentials.
   */
  public CatalogApi(
      Settings settings,
      Database database,
      Storage storage,
      PurgeQueue purgeQueue,
      Authenticator authenticator) {
    this(
        settings,
        database,
        storage,
        purgeQueue,
        authenticator,
        null,
        CredentialVending.disabled());
  }

  /**
   * A catalog whose callers {@code authenticator} establishes, whose token requests {@code tokens}
   * answers (null: this catalog issues no tokens), and which vends storage credentials to engines
   * that ask for them as {@code vending} allows.
   */
  public CatalogApi(
      Settings settings,
      Database database,
      Storage storage,
      PurgeQueue purgeQueue,
      Authenticator authenticator,
      TokenEndpoint tokens,
      CredentialVending vending) {
    this.settings = settings;
    this.authenticator = authenticator;
    this.tokens = tokens;
    this.jwks = new JwksEndpoint(new MetastoreKeySet(new SigningKeys(database)));
    this.database = database;
    this.storage = storage;
    this.warehouses = new Warehouses(database);
    this.namespaces = new Namespaces(database);
    this.objects = new CatalogObjects(database);
    this.namespaceEndpoints = new NamespaceEndpoints(namespaces);
    this.tableEndpoints =
        new TableEndpoints(
            objects,
            storage.io(),
            parsedMetadata,
            new LoadedTables(objects, VersionCache.ofHeapShare()));
    this.viewEndpoints = new ViewEndpoints(objects, tableEndpoints);
    this.credentialEndpoints = new CredentialEndpoints(vending, objects);
    PurgeJobs purgeJobs = new PurgeJobs(database);
    this.purges = new PurgeOutbox(purgeJobs, purgeQueue);
    this.purgeJobEndpoints = new PurgeJobEndpoints(purgeJobs);
    this.access = new AccessQuery(database);
    this.managementEndpoints = new ManagementEndpoints(database, warehouses, access);
    this.idempotency =
        settings.idempotencyKeyLifetime() == null
            ? null
            : new IdempotentRequests(
                settings.idempotencyKeyLifetime(),
                new IdempotencyKeys(database));
  }

  public Settings settings() {
    return settings;
  }

  /**
   * Serves a request, under the {@link RequestScope} bound by the caller (its deadline) or a new
   * one. A mutation carrying an {@code Idempotency-Key} takes effect at most once per key.
   */
  public Response handle(Request request) {
    RequestScope scope = RequestScope.current();
    return scope.run(
        () -> {
          try {
            Caller caller =
                request.route().requiresAuthentication()
                    ? authenticator.authenticate(request)
                    : null;
            if (caller != null) {
              scope.authenticated(caller.realm(), caller.principal());
            }
            CredentialEndpoints.Delegation delegation = delegation(request, caller);
            Response response =
                idempotency != null && IdempotentRequests.applies(request)
                    ? idempotency.handle(caller, request, r -> respond(r, caller))
                    : dispatch(request, caller);
            return delegation == null ? response : credentialEndpoints.attach(delegation, response);
          } catch (RuntimeException e) {
            return ErrorMapper.toResponse(e);
          }
        });
  }

  /** The credentials a table response is to carry, checked before the request runs. */
  private CredentialEndpoints.Delegation delegation(Request request, Caller caller) {
    return switch (request.route()) {
      case CREATE_TABLE, REGISTER_TABLE, LOAD_TABLE, UPDATE_TABLE ->
          AccessDelegation.vendedCredentialsRequested(request)
              ? credentialEndpoints.prepare(
                  request,
                  caller,
                  warehouses.get(caller.realm(), request.pathParameter("prefix").orElseThrow()))
              : null;
      default -> null;
    };
  }

  private Response respond(Request request, Caller caller) {
    try {
      return dispatch(request, caller);
    } catch (RuntimeException e) {
      return ErrorMapper.toResponse(e);
    }
  }

  /** Serves an authenticated request; {@code caller} is null only for routes open to anyone. */
  private Response dispatch(Request request, Caller caller) {
    return switch (request.route()) {
      case HEALTH -> Response.json(200, "{\"status\":\"ok\"}");
      case READY -> ready();
      case GET_CONFIG -> config(request, caller);
      case GET_TOKEN ->
          tokens == null
              ? OAuthError.invalidClient("This catalog issues no tokens").toResponse()
              : tokens.handle(request);
      case GET_JWKS -> jwks.handle();
      case LIST_NAMESPACES -> namespaceEndpoints.listNamespaces(scope(request, caller));
      case CREATE_NAMESPACE -> namespaceEndpoints.createNamespace(scope(request, caller));
      case LOAD_NAMESPACE -> namespaceEndpoints.loadNamespaceMetadata(scope(request, caller));
      case NAMESPACE_EXISTS -> namespaceEndpoints.namespaceExists(scope(request, caller));
      case DROP_NAMESPACE -> namespaceEndpoints.dropNamespace(scope(request, caller));
      case UPDATE_NAMESPACE_PROPERTIES -> namespaceEndpoints.updateProperties(scope(request, caller));
      case LIST_TABLES -> tableEndpoints.listTables(scope(request, caller));
      case CREATE_TABLE -> tableEndpoints.createTable(scope(request, caller));
      case REGISTER_TABLE -> tableEndpoints.registerTable(scope(request, caller));
      case LOAD_TABLE -> tableEndpoints.loadTable(scope(request, caller));
      case TABLE_EXISTS -> tableEndpoints.tableExists(scope(request, caller));
      case LOAD_CREDENTIALS -> credentialEndpoints.loadCredentials(scope(request, caller), caller);
      case UPDATE_TABLE -> tableEndpoints.updateTable(scope(request, caller));
      case DROP_TABLE -> tableEndpoints.dropTable(scope(request, caller));
      case RENAME_TABLE -> tableEndpoints.renameTable(scope(request, caller));
      case REPORT_METRICS -> tableEndpoints.reportMetrics(scope(request, caller));
      case COMMIT_TRANSACTION -> tableEndpoints.commitTransaction(scope(request, caller));
      case LIST_VIEWS -> viewEndpoints.listViews(scope(request, caller));
      case CREATE_VIEW -> viewEndpoints.createView(scope(request, caller));
      case REGISTER_VIEW -> viewEndpoints.registerView(scope(request, caller));
      case LOAD_VIEW -> viewEndpoints.loadView(scope(request, caller));
      case VIEW_EXISTS -> viewEndpoints.viewExists(scope(request, caller));
      case REPLACE_VIEW -> viewEndpoints.replaceView(scope(request, caller));
      case DROP_VIEW -> viewEndpoints.dropView(scope(request, caller));
      case RENAME_VIEW -> viewEndpoints.renameView(scope(request, caller));
      case LIST_PURGE_JOBS -> purgeJobEndpoints.listPurgeJobs(scope(request, caller));
      case LIST_WAREHOUSES,
          CREATE_WAREHOUSE,
          GET_WAREHOUSE,
          DELETE_WAREHOUSE,
          LIST_PRINCIPALS,
          CREATE_PRINCIPAL,
          GET_PRINCIPAL,
          DELETE_PRINCIPAL,
          ROTATE_CREDENTIALS,
          ASSIGN_PRINCIPAL_ROLE,
          REVOKE_PRINCIPAL_ROLE,
          LIST_PRINCIPAL_ROLES,
          CREATE_PRINCIPAL_ROLE,
          DELETE_PRINCIPAL_ROLE,
          ASSIGN_CATALOG_ROLE,
          REVOKE_CATALOG_ROLE,
          LIST_CATALOG_ROLES,
          CREATE_CATALOG_ROLE,
          DELETE_CATALOG_ROLE,
          LIST_GRANTS,
          ADD_GRANT,
          REVOKE_GRANT ->
          managementEndpoints.handle(request, caller);
    };
  }

  /**
   * The request's warehouse (a warehouse of another realm is as unknown as a missing one) and its
   * caller's access there, read in one statement and checked before anything else runs. A load
   * reads its table's row in the same statement.
   */
  private Scope scope(Request request, Caller caller) {
    // the Iceberg routes name the warehouse by their prefix, the management API's by {warehouse}
    String name =
        request.pathParameter("prefix").or(() -> request.pathParameter("warehouse")).orElseThrow();
    Warehouse warehouse = warehouses.get(caller.realm(), name);
    Scope scope =
        new Scope(
            warehouse,
            new PuddleCatalog(warehouse, namespaces, objects, storage.io(), purges, parsedMetadata),
            request,
            access.load(caller, warehouse.id(), tableEndpoints.readAhead(request, warehouse)));
    Authorization.authorize(scope);
    return scope;
  }

  /**
   * {@code GET /v1/config}: the warehouse's prefix, the storage properties engines need, the
   * namespace separator, every endpoint this catalog serves, the idempotency key lifetime, and,
   * where the warehouse vends credentials and engines get no storage keys here, a default {@code
   * X-Iceberg-Access-Delegation} header. The caller must hold some catalog role of the warehouse.
   */
  private Response config(Request request, Caller caller) {
    String name = request.queryParameter("warehouse").orElse(settings.defaultWarehouse());
    Warehouse warehouse = warehouses.get(caller.realm(), name);
    access.load(caller, warehouse.id()).requireCatalogRole();
    ConfigResponse.Builder builder = ConfigResponse.builder();
    if (settings.idempotencyKeyLifetime() != null) {
      builder.withIdempotencyKeyLifetime(settings.idempotencyKeyLifetime().toString());
    }
    if (credentialEndpoints.vends(warehouse) && !storage.handsOutKeys()) {
      // a default, as in PyIceberg: engines without keys of their own ask for credentials
      builder.withDefault(
          "header." + AccessDelegation.HEADER, AccessDelegation.VENDED_CREDENTIALS);
    }
    ConfigResponse response =
        builder
            .withDefaults(storage.configDefaults())
            .withOverride("prefix", warehouse.name())
            .withOverride(RESTCatalogProperties.NAMESPACE_SEPARATOR, Names.SEPARATOR_ENCODED)
            .withEndpoints(
                Arrays.stream(Route.values())
                    .filter(Route::isCatalogEndpoint)
                    .map(route -> Endpoint.create(route.method(), route.path()))
                    .toList())
            .build();
    return Response.json(200, RestJson.write(response));
  }

  private Response ready() {
    try {
      database.read(
          connection -> {
            if (!connection.isValid(2)) {
              // a connection failure (class 08) makes the metastore discard it: the next request
              // reconnects instead of failing on it
              throw new SQLNonTransientConnectionException(
                  "Metastore connection is no longer valid", "08006");
            }
            return null;
          });
      return Response.json(200, "{\"status\":\"ready\"}");
    } catch (RuntimeException e) {
      return ErrorMapper.error(503, "ServiceUnavailableException", "Metastore unreachable");
    }
  }
}
