package dev.puddle.core.rest;

import dev.puddle.contract.FunctionGroup;
import dev.puddle.contract.Route;
import dev.puddle.core.access.AccessPolicy;
import dev.puddle.core.access.CallerAccess;
import dev.puddle.core.access.Operation;
import dev.puddle.core.access.Targets;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.RequestScope;
import dev.puddle.core.api.Response;
import dev.puddle.core.auth.Authenticator;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.auth.JwksEndpoint;
import dev.puddle.core.auth.MetastoreKeySet;
import dev.puddle.core.auth.OAuthError;
import dev.puddle.core.auth.TokenEndpoint;
import dev.puddle.core.catalog.PuddleCatalog;
import dev.puddle.core.catalog.VersionCache;
import dev.puddle.core.events.EventRelayQueue;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.DroppedObjects;
import dev.puddle.core.metastore.EventStore;
import dev.puddle.core.metastore.IdempotencyKeys;
import dev.puddle.core.metastore.IdempotencyMark;
import dev.puddle.core.metastore.Listing;
import dev.puddle.core.metastore.MaintenanceJobs;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.PurgeJobs;
import dev.puddle.core.metastore.ScanPlanJobs;
import dev.puddle.core.metastore.ScanPlans;
import dev.puddle.core.metastore.SigningKeys;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.AccessQuery;
import dev.puddle.core.metastore.access.AccessQuery.AccessRead;
import dev.puddle.core.planning.PlanningOutbox;
import dev.puddle.core.purge.PurgeOutbox;
import dev.puddle.core.purge.PurgeQueue;
import dev.puddle.core.signing.RequestSigner;
import dev.puddle.core.storage.Storage;
import dev.puddle.core.vending.CredentialVending;
import dev.puddle.core.vending.CredentialVendor;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;

/**
 * The Iceberg REST catalog over one metastore and one storage: turns a {@link Request} into a
 * {@link Response}, every failure included. Stateless between requests apart from caches that are
 * safe to lose, so any instance can serve any request.
 *
 * <p>A request goes through one pipeline, each step handing the next what it needs: the caller is
 * authenticated; its warehouse and its access there are read in one statement (with the table's
 * row, for a load, a commit or a signing); {@link AccessPolicy} authorizes what the path decides,
 * and the credentials a table response is to carry; the endpoint parses the body, authorizes what
 * the body decides and performs the operation, each change writing its events and, for a request
 * with an idempotency key, the key's claim in its own transaction; the key's response is stored.
 * Built by {@link #builder}, the one place that wires a catalog, for the functions, the local twin
 * and the tests alike.
 */
public final class CatalogApi {

  /**
   * Who the catalog serves: the realm requests are logged under until their token names one, and
   * the default warehouse of {@code /v1/config}; and how long an idempotency key is honoured (null:
   * keys are ignored and not advertised).
   */
  public record Settings(String realm, String defaultWarehouse, Duration idempotencyKeyLifetime) {
    /** The default lifetime of idempotency keys, advertised in {@code /v1/config}. */
    public static final Duration DEFAULT_IDEMPOTENCY_KEY_LIFETIME = Duration.ofMinutes(30);

    public Settings(String realm, String defaultWarehouse) {
      this(realm, defaultWarehouse, DEFAULT_IDEMPOTENCY_KEY_LIFETIME);
    }
  }

  /** Wires a catalog: the metastore, storage and settings, and optional parts. */
  public static final class Builder {
    private final Settings settings;
    private final Database database;
    private final Storage storage;
    private Authenticator authenticator;
    private PurgeQueue purgeQueue;
    private PurgeQueue planningQueue;
    private EventRelayQueue eventRelayQueue;
    private TokenEndpoint tokens;
    private CredentialVendor credentialVendor;
    private RequestSigner requestSigner;

    private Builder(Settings settings, Database database, Storage storage) {
      this.settings = Objects.requireNonNull(settings, "settings");
      this.database = Objects.requireNonNull(database, "database");
      this.storage = Objects.requireNonNull(storage, "storage");
    }

    /** Who establishes callers: required. */
    public Builder authenticator(Authenticator authenticator) {
      this.authenticator = authenticator;
      return this;
    }

    /**
     * Where drops with purge and maintenance runs send their jobs; without one, the sweep sends
     * them.
     */
    public Builder purgeQueue(PurgeQueue purgeQueue) {
      this.purgeQueue = purgeQueue;
      return this;
    }

    /** Where submitted scan plans send their jobs; without one, the sweep sends them. */
    public Builder planningQueue(PurgeQueue planningQueue) {
      this.planningQueue = planningQueue;
      return this;
    }

    /**
     * Where a committed change nudges the event relay; without one, the event sweep nudges it (a
     * minute or so later).
     */
    public Builder eventRelayQueue(EventRelayQueue eventRelayQueue) {
      this.eventRelayQueue = eventRelayQueue;
      return this;
    }

    /** The token requests this catalog answers; without it, it issues no tokens. */
    public Builder tokens(TokenEndpoint tokens) {
      this.tokens = tokens;
      return this;
    }

    /**
     * What vends storage credentials to engines that ask for them (wrap it in a {@link
     * dev.puddle.core.vending.CredentialCache}); without it, none are vended.
     */
    public Builder credentialVendor(CredentialVendor credentialVendor) {
      this.credentialVendor = credentialVendor;
      return this;
    }

    /**
     * What signs engines' S3 requests under this catalog's own credentials (remote signing);
     * without it, none are signed and table responses never ask engines to.
     */
    public Builder requestSigner(RequestSigner requestSigner) {
      this.requestSigner = requestSigner;
      return this;
    }

    public CatalogApi build() {
      return new CatalogApi(this);
    }
  }

  private final Settings settings;
  private final Database database;
  private final Authenticator authenticator;
  private final TokenEndpoint tokens;
  private final CredentialVending vending;
  private final Warehouses warehouses;
  private final Namespaces namespaces;
  private final CatalogObjects objects;
  private final Storage storage;
  private final AccessQuery access;
  private final PurgeOutbox purges;
  private final MaintenanceOutbox maintenance;
  private final VersionCache<TableMetadata> parsedMetadata = VersionCache.ofHeapShare();
  private final IdempotentRequests idempotency;
  private final ProbeEndpoints probes;
  private final JwksEndpoint jwks;
  private final ConfigEndpoint config;
  private final NamespaceEndpoints namespaceEndpoints;
  private final TableEndpoints tableEndpoints;
  private final ViewEndpoints viewEndpoints;
  private final CredentialEndpoints credentialEndpoints;
  private final SignEndpoint signEndpoint;
  private final PlanningEndpoints planningEndpoints;
  private final PurgeJobEndpoints purgeJobEndpoints;
  private final DroppedObjectEndpoints droppedObjectEndpoints;
  private final MaintenanceJobEndpoints maintenanceJobEndpoints;
  private final ManagementEndpoints managementEndpoints;
  private final EventEndpoints eventEndpoints;
  private final RelayNudges.Environment relayNudges;

  private CatalogApi(Builder parts) {
    this.settings = parts.settings;
    this.database = parts.database;
    this.storage = parts.storage;
    this.authenticator = Objects.requireNonNull(parts.authenticator, "authenticator");
    this.tokens = parts.tokens;
    this.vending =
        parts.credentialVendor == null
            ? CredentialVending.disabled()
            : new CredentialVending(parts.credentialVendor);
    this.warehouses = new Warehouses(database);
    this.namespaces = new Namespaces(database);
    this.objects = new CatalogObjects(database);
    this.access = new AccessQuery(database);
    PurgeJobs purgeJobs = new PurgeJobs(database);
    this.purges = new PurgeOutbox(purgeJobs, parts.purgeQueue);
    MaintenanceJobs maintenanceJobs = new MaintenanceJobs(database);
    this.maintenance =
        new MaintenanceOutbox(
            maintenanceJobs, parts.purgeQueue, MaintenanceOutbox.Settings.DEFAULTS);
    this.idempotency =
        settings.idempotencyKeyLifetime() == null
            ? null
            : new IdempotentRequests(
                settings.idempotencyKeyLifetime(), new IdempotencyKeys(database));
    this.probes = new ProbeEndpoints(database);
    this.jwks = new JwksEndpoint(new MetastoreKeySet(new SigningKeys(database)));
    this.signEndpoint = new SignEndpoint(parts.requestSigner, objects);
    this.credentialEndpoints = new CredentialEndpoints(vending, signEndpoint.signs(), objects);
    this.config =
        new ConfigEndpoint(
            storage, credentialEndpoints, signEndpoint.signs(), settings.idempotencyKeyLifetime());
    ListingAnswers listingAnswers = new ListingAnswers();
    this.namespaceEndpoints = new NamespaceEndpoints(namespaces, listingAnswers);
    this.tableEndpoints =
        new TableEndpoints(
            objects,
            parsedMetadata,
            new LoadedTables(objects, VersionCache.ofHeapShare()),
            maintenance,
            listingAnswers);
    this.viewEndpoints = new ViewEndpoints(objects, tableEndpoints);
    this.purgeJobEndpoints = new PurgeJobEndpoints(purgeJobs, purges);
    this.droppedObjectEndpoints = new DroppedObjectEndpoints(new DroppedObjects(database));
    this.planningEndpoints =
        new PlanningEndpoints(
            new ScanPlans(database),
            objects,
            credentialEndpoints,
            new PlanningOutbox(new ScanPlanJobs(database), parts.planningQueue),
            database.billsEachStatement());
    this.maintenanceJobEndpoints =
        new MaintenanceJobEndpoints(maintenanceJobs, maintenance, objects);
    this.managementEndpoints = new ManagementEndpoints(database, warehouses);
    this.eventEndpoints = new EventEndpoints(new EventStore(database), Clock.systemUTC());
    this.relayNudges = new RelayNudges.Environment(parts.eventRelayQueue);
  }

  /** A catalog over {@code database} and {@code storage}; see {@link Builder} for the rest. */
  public static Builder builder(Settings settings, Database database, Storage storage) {
    return new Builder(settings, database, storage);
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
            if (!request.route().requiresAuthentication()) {
              return open(request);
            }
            Caller caller = authenticator.authenticate(request);
            scope.authenticated(caller.realm(), caller.principal());
            return serve(request, caller);
          } catch (RuntimeException e) {
            return ErrorMapper.toResponse(e);
          }
        });
  }

  /**
   * Drops what an execution environment must not carry past a SnapStart restore: idle connections,
   * vended credentials, the token issuer's keys, cached public keys.
   */
  public void afterRestore() {
    database.closeIdleConnections();
    vending.forget();
    if (tokens != null) {
      tokens.clear();
    }
    authenticator.clear();
  }

  /** The routes anyone may call, token or not ({@link Operation}'s rules for them say so). */
  private Response open(Request request) {
    return switch (request.route()) {
      case HEALTH -> probes.health();
      case READY -> probes.ready();
      case GET_TOKEN ->
          tokens == null
              ? OAuthError.invalidClient("This catalog issues no tokens").toResponse()
              : tokens.handle(request);
      case GET_JWKS -> jwks.handle();
      default -> throw new IllegalStateException("Not an open route: " + request.route());
    };
  }

  /**
   * An authenticated request: its warehouse (one of another realm is as unknown as a missing one)
   * and its caller's access there, read in one statement with the table's row for a load, commit or
   * signing and with the first page of a listing, and checked before anything else runs.
   */
  private Response serve(Request request, Caller caller) {
    Optional<Operation> decided = AccessPolicy.ofRequest(request);
    boolean inWarehouse = decided.map(op -> op.rule().inWarehouse()).orElse(true);
    Warehouse warehouse =
        inWarehouse ? warehouses.get(caller.realm(), warehouseName(request)) : null;
    Listing listing = warehouse == null ? null : Paging.listingOf(request, warehouse);
    AccessRead read =
        listing != null
            ? access.read(caller, warehouse.id(), listing)
            : access.read(
                caller,
                warehouse == null ? null : warehouse.id(),
                warehouse == null ? null : rowLookup(request, warehouse));
    decided.ifPresent(op -> authorize(op, request, read.access(), warehouse));
    CredentialEndpoints.Delegation delegation =
        AccessPolicy.carriesCredentials(request.route())
            ? credentialEndpoints.prepare(request, read.access(), warehouse)
            : null;
    Function<IdempotencyMark, Response> perform =
        mark -> {
          Change change = new Change(request.requestId(), caller.realm(), caller.principal(), mark);
          try {
            return dispatch(
                new Scope(
                    request,
                    caller,
                    warehouse,
                    read.access(),
                    read.row(),
                    read.listed(),
                    change,
                    catalog(request, warehouse, change)));
          } catch (RuntimeException e) {
            return ErrorMapper.toResponse(e);
          }
        };
    RelayNudges nudges = relayNudges.forRequest(RequestScope.current().deadline());
    RequestScope.current().listenToEvents(nudges);
    try {
      Response response =
          idempotency != null && IdempotentRequests.applies(request)
              ? idempotency.handle(caller, request, perform)
              : perform.apply(IdempotencyMark.unkeyed());
      return delegation == null ? response : credentialEndpoints.attach(delegation, response);
    } finally {
      nudges.await();
    }
  }

  /** The read of the table's row the access check makes for a load, a commit or a signing. */
  private CatalogObjects.Lookup rowLookup(Request request, Warehouse warehouse) {
    return request.route() == Route.SIGN_REQUEST
        ? signEndpoint.lookup(request, warehouse)
        : tableEndpoints.rowLookup(request, warehouse);
  }

  /**
   * Throws 403 unless the caller may perform {@code operation}; or 404, as for an absent object, if
   * it asked for a table or view by a name that holds the other kind, which it may know of ({@link
   * AccessPolicy#showsOtherKind}). The name is looked up only on that refusal.
   */
  private void authorize(
      Operation operation, Request request, CallerAccess access, Warehouse warehouse) {
    Targets targets = Scope.targetsOf(request);
    try {
      AccessPolicy.authorize(operation, access, targets);
    } catch (ForbiddenException refused) {
      Optional<Operation> showing = AccessPolicy.showsOtherKind(request.route());
      if (showing.isEmpty() || !AccessPolicy.allows(showing.get(), access, targets)) {
        throw refused;
      }
      TableIdentifier name = targets.object();
      boolean asView = showing.get() == Operation.TABLE_EXISTS;
      if (objects.exists(warehouse, name, asView ? Kind.TABLE : Kind.VIEW)) {
        throw asView
            ? new NoSuchViewException("View does not exist: %s", name)
            : new NoSuchTableException("Table does not exist: %s", name);
      }
      throw refused;
    }
  }

  /**
   * The warehouse a request names: the Iceberg routes by their prefix, the management API's by
   * {@code {warehouse}}, {@code /v1/config} by its query (or the default warehouse).
   */
  private String warehouseName(Request request) {
    return request
        .pathParameter("prefix")
        .or(() -> request.pathParameter("warehouse"))
        .or(() -> request.queryParameter("warehouse"))
        .orElse(settings.defaultWarehouse());
  }

  /** The request's catalog over its warehouse: Iceberg routes only. */
  private PuddleCatalog catalog(Request request, Warehouse warehouse, Change change) {
    if (request.pathParameter("prefix").isEmpty()) {
      return null;
    }
    return new PuddleCatalog(
        warehouse, namespaces, objects, storage.io(), purges, parsedMetadata, change);
  }

  /** Serves an authorized request. */
  private Response dispatch(Scope scope) {
    Route route = scope.request().route();
    if (PurgeJobEndpoints.ROUTES.contains(route)) {
      return purgeJobEndpoints.handle(scope);
    }
    if (route == Route.LIST_DROPPED_OBJECTS) {
      return droppedObjectEndpoints.listDroppedObjects(scope);
    }
    if (route == Route.UNDROP_OBJECT) {
      return droppedObjectEndpoints.undropObject(scope);
    }
    if (route == Route.LIST_MAINTENANCE_JOBS) {
      return maintenanceJobEndpoints.listMaintenanceJobs(scope);
    }
    if (route == Route.START_MAINTENANCE) {
      return maintenanceJobEndpoints.startMaintenance(scope);
    }
    if (route.group() == FunctionGroup.ADMIN) {
      return managementEndpoints.handle(scope);
    }
    return switch (route) {
      case GET_CONFIG -> config.config(scope);
      case LIST_NAMESPACES -> namespaceEndpoints.listNamespaces(scope);
      case CREATE_NAMESPACE -> namespaceEndpoints.createNamespace(scope);
      case LOAD_NAMESPACE -> namespaceEndpoints.loadNamespaceMetadata(scope);
      case NAMESPACE_EXISTS -> namespaceEndpoints.namespaceExists(scope);
      case DROP_NAMESPACE -> namespaceEndpoints.dropNamespace(scope);
      case UPDATE_NAMESPACE_PROPERTIES -> namespaceEndpoints.updateProperties(scope);
      case LIST_TABLES -> tableEndpoints.listTables(scope);
      case CREATE_TABLE -> tableEndpoints.createTable(scope);
      case REGISTER_TABLE -> tableEndpoints.registerTable(scope);
      case LOAD_TABLE -> tableEndpoints.loadTable(scope);
      case TABLE_EXISTS -> tableEndpoints.tableExists(scope);
      case LOAD_CREDENTIALS -> credentialEndpoints.loadCredentials(scope);
      case SIGN_REQUEST -> signEndpoint.signRequest(scope);
      case PLAN_TABLE_SCAN -> planningEndpoints.planTableScan(scope);
      case FETCH_PLANNING_RESULT -> planningEndpoints.fetchPlanningResult(scope);
      case CANCEL_PLANNING -> planningEndpoints.cancelPlanning(scope);
      case FETCH_SCAN_TASKS -> planningEndpoints.fetchScanTasks(scope);
      case UPDATE_TABLE -> tableEndpoints.updateTable(scope);
      case DROP_TABLE -> tableEndpoints.dropTable(scope);
      case RENAME_TABLE -> tableEndpoints.renameTable(scope);
      case REPORT_METRICS -> tableEndpoints.reportMetrics(scope);
      case COMMIT_TRANSACTION -> tableEndpoints.commitTransaction(scope);
      case LIST_VIEWS -> viewEndpoints.listViews(scope);
      case CREATE_VIEW -> viewEndpoints.createView(scope);
      case REGISTER_VIEW -> viewEndpoints.registerView(scope);
      case LOAD_VIEW -> viewEndpoints.loadView(scope);
      case VIEW_EXISTS -> viewEndpoints.viewExists(scope);
      case REPLACE_VIEW -> viewEndpoints.replaceView(scope);
      case DROP_VIEW -> viewEndpoints.dropView(scope);
      case RENAME_VIEW -> viewEndpoints.renameView(scope);
      case QUERY_EVENTS -> eventEndpoints.queryEvents(scope);
      default -> throw new IllegalStateException("Not an authenticated route: " + route);
    };
  }
}
