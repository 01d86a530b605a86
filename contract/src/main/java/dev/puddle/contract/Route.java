package dev.puddle.contract;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The route table: every HTTP operation Puddle serves, and the function group that serves it. It is
 * the single source for the request router, the CDK routes, the local server and the {@code
 * endpoints} list of {@code GET /v1/config}. What a caller needs for each is core's {@code
 * access.Operation} to say.
 *
 * <p>Operation ids and path templates are those of the Iceberg REST catalog specification, apart
 * from Puddle's own routes: probes, the token issuer's key set and the management API under {@code
 * /admin}. The Iceberg methods and paths are spelled out here, so that this module needs nothing
 * but the JDK; a test in core holds them to iceberg-core's {@code Endpoint} constants.
 */
public enum Route {
  GET_CONFIG("getConfig", "GET", "/v1/config", FunctionGroup.READ),

  /** Puddle's own token issuer (OAuth2 client credentials and token exchange). */
  GET_TOKEN("getToken", "POST", "/v1/oauth/tokens", FunctionGroup.TOKEN),

  /** The public keys of Puddle's own token issuer, as a JWKS document. */
  GET_JWKS("getJwks", "GET", "/.well-known/jwks.json", FunctionGroup.TOKEN),

  LIST_NAMESPACES("listNamespaces", "GET", "/v1/{prefix}/namespaces", FunctionGroup.READ),
  CREATE_NAMESPACE("createNamespace", "POST", "/v1/{prefix}/namespaces", FunctionGroup.WRITE),
  LOAD_NAMESPACE(
      "loadNamespaceMetadata", "GET", "/v1/{prefix}/namespaces/{namespace}", FunctionGroup.READ),
  NAMESPACE_EXISTS(
      "namespaceExists", "HEAD", "/v1/{prefix}/namespaces/{namespace}", FunctionGroup.READ),
  DROP_NAMESPACE(
      "dropNamespace", "DELETE", "/v1/{prefix}/namespaces/{namespace}", FunctionGroup.WRITE),
  UPDATE_NAMESPACE_PROPERTIES(
      "updateProperties",
      "POST",
      "/v1/{prefix}/namespaces/{namespace}/properties",
      FunctionGroup.WRITE),

  LIST_TABLES(
      "listTables", "GET", "/v1/{prefix}/namespaces/{namespace}/tables", FunctionGroup.READ),
  CREATE_TABLE(
      "createTable", "POST", "/v1/{prefix}/namespaces/{namespace}/tables", FunctionGroup.WRITE),
  REGISTER_TABLE(
      "registerTable", "POST", "/v1/{prefix}/namespaces/{namespace}/register", FunctionGroup.WRITE),
  LOAD_TABLE(
      "loadTable", "GET", "/v1/{prefix}/namespaces/{namespace}/tables/{table}", FunctionGroup.READ),
  TABLE_EXISTS(
      "tableExists",
      "HEAD",
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}",
      FunctionGroup.READ),
  LOAD_CREDENTIALS(
      "loadCredentials",
      "GET",
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}/credentials",
      FunctionGroup.READ),
  /** Remote signing: S3 requests signed for the table's own locations, by the signer function. */
  SIGN_REQUEST(
      "signRequest",
      "POST",
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}/sign",
      FunctionGroup.SIGN),
  /**
   * Server-side scan planning. Planning only reads the table, and a plan's state belongs to the
   * caller who asked for it, so cancelling it changes nothing in the catalog: all four are reads.
   */
  PLAN_TABLE_SCAN(
      "planTableScan",
      "POST",
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}/plan",
      FunctionGroup.READ),
  FETCH_PLANNING_RESULT(
      "fetchPlanningResult",
      "GET",
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}",
      FunctionGroup.READ),
  CANCEL_PLANNING(
      "cancelPlanning",
      "DELETE",
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}",
      FunctionGroup.READ),
  FETCH_SCAN_TASKS(
      "fetchScanTasks",
      "POST",
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks",
      FunctionGroup.READ),
  UPDATE_TABLE(
      "updateTable",
      "POST",
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}",
      FunctionGroup.WRITE),
  DROP_TABLE(
      "dropTable",
      "DELETE",
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}",
      FunctionGroup.WRITE),
  RENAME_TABLE("renameTable", "POST", "/v1/{prefix}/tables/rename", FunctionGroup.WRITE),
  REPORT_METRICS(
      "reportMetrics",
      "POST",
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
      FunctionGroup.WRITE),
  COMMIT_TRANSACTION(
      "commitTransaction", "POST", "/v1/{prefix}/transactions/commit", FunctionGroup.WRITE),

  LIST_VIEWS("listViews", "GET", "/v1/{prefix}/namespaces/{namespace}/views", FunctionGroup.READ),
  CREATE_VIEW(
      "createView", "POST", "/v1/{prefix}/namespaces/{namespace}/views", FunctionGroup.WRITE),
  REGISTER_VIEW(
      "registerView",
      "POST",
      "/v1/{prefix}/namespaces/{namespace}/register-view",
      FunctionGroup.WRITE),
  LOAD_VIEW(
      "loadView", "GET", "/v1/{prefix}/namespaces/{namespace}/views/{view}", FunctionGroup.READ),
  VIEW_EXISTS(
      "viewExists", "HEAD", "/v1/{prefix}/namespaces/{namespace}/views/{view}", FunctionGroup.READ),
  REPLACE_VIEW(
      "replaceView",
      "POST",
      "/v1/{prefix}/namespaces/{namespace}/views/{view}",
      FunctionGroup.WRITE),
  DROP_VIEW(
      "dropView",
      "DELETE",
      "/v1/{prefix}/namespaces/{namespace}/views/{view}",
      FunctionGroup.WRITE),
  RENAME_VIEW("renameView", "POST", "/v1/{prefix}/views/rename", FunctionGroup.WRITE),

  /**
   * The change-event feed of the REST events proposal (apache/iceberg PR #12584), not yet in
   * iceberg-core: a read, though its filters come in a POST body.
   */
  QUERY_EVENTS("queryEvents", "POST", "/v1/{prefix}/events", FunctionGroup.READ),

  /**
   * Puddle's own management API, not part of the Iceberg REST specification: warehouses,
   * principals, principal roles, catalog roles and grants, shaped after Apache Polaris's.
   */
  LIST_WAREHOUSES("listWarehouses", "GET", "/admin/v1/warehouses", FunctionGroup.ADMIN),
  CREATE_WAREHOUSE("createWarehouse", "POST", "/admin/v1/warehouses", FunctionGroup.ADMIN),
  GET_WAREHOUSE("getWarehouse", "GET", "/admin/v1/warehouses/{warehouse}", FunctionGroup.ADMIN),
  DELETE_WAREHOUSE(
      "deleteWarehouse", "DELETE", "/admin/v1/warehouses/{warehouse}", FunctionGroup.ADMIN),
  /** Sets and removes a warehouse's properties, its settings such as {@code drop.retention}. */
  UPDATE_WAREHOUSE_PROPERTIES(
      "updateWarehouseProperties",
      "POST",
      "/admin/v1/warehouses/{warehouse}/properties",
      FunctionGroup.ADMIN),
  LIST_PRINCIPALS("listPrincipals", "GET", "/admin/v1/principals", FunctionGroup.ADMIN),
  CREATE_PRINCIPAL("createPrincipal", "POST", "/admin/v1/principals", FunctionGroup.ADMIN),
  GET_PRINCIPAL("getPrincipal", "GET", "/admin/v1/principals/{principal}", FunctionGroup.ADMIN),
  DELETE_PRINCIPAL(
      "deletePrincipal", "DELETE", "/admin/v1/principals/{principal}", FunctionGroup.ADMIN),
  ROTATE_CREDENTIALS(
      "rotateCredentials", "POST", "/admin/v1/principals/{principal}/rotate", FunctionGroup.ADMIN),
  ASSIGN_PRINCIPAL_ROLE(
      "assignPrincipalRole",
      "PUT",
      "/admin/v1/principals/{principal}/principal-roles",
      FunctionGroup.ADMIN),
  REVOKE_PRINCIPAL_ROLE(
      "revokePrincipalRole",
      "DELETE",
      "/admin/v1/principals/{principal}/principal-roles/{principalRole}",
      FunctionGroup.ADMIN),
  LIST_PRINCIPAL_ROLES(
      "listPrincipalRoles", "GET", "/admin/v1/principal-roles", FunctionGroup.ADMIN),
  CREATE_PRINCIPAL_ROLE(
      "createPrincipalRole", "POST", "/admin/v1/principal-roles", FunctionGroup.ADMIN),
  DELETE_PRINCIPAL_ROLE(
      "deletePrincipalRole",
      "DELETE",
      "/admin/v1/principal-roles/{principalRole}",
      FunctionGroup.ADMIN),
  ASSIGN_CATALOG_ROLE(
      "assignCatalogRoleToPrincipalRole",
      "PUT",
      "/admin/v1/principal-roles/{principalRole}/catalog-roles/{warehouse}",
      FunctionGroup.ADMIN),
  REVOKE_CATALOG_ROLE(
      "revokeCatalogRoleFromPrincipalRole",
      "DELETE",
      "/admin/v1/principal-roles/{principalRole}/catalog-roles/{warehouse}/{catalogRole}",
      FunctionGroup.ADMIN),
  LIST_CATALOG_ROLES(
      "listCatalogRoles",
      "GET",
      "/admin/v1/warehouses/{warehouse}/catalog-roles",
      FunctionGroup.ADMIN),
  CREATE_CATALOG_ROLE(
      "createCatalogRole",
      "POST",
      "/admin/v1/warehouses/{warehouse}/catalog-roles",
      FunctionGroup.ADMIN),
  DELETE_CATALOG_ROLE(
      "deleteCatalogRole",
      "DELETE",
      "/admin/v1/warehouses/{warehouse}/catalog-roles/{catalogRole}",
      FunctionGroup.ADMIN),
  LIST_GRANTS(
      "listGrantsForCatalogRole",
      "GET",
      "/admin/v1/warehouses/{warehouse}/catalog-roles/{catalogRole}/grants",
      FunctionGroup.ADMIN),
  ADD_GRANT(
      "addGrantToCatalogRole",
      "PUT",
      "/admin/v1/warehouses/{warehouse}/catalog-roles/{catalogRole}/grants",
      FunctionGroup.ADMIN),
  REVOKE_GRANT(
      "revokeGrantFromCatalogRole",
      "POST",
      "/admin/v1/warehouses/{warehouse}/catalog-roles/{catalogRole}/grants",
      FunctionGroup.ADMIN),
  /** A warehouse's purge jobs. */
  LIST_PURGE_JOBS(
      "listPurgeJobs", "GET", "/admin/v1/warehouses/{warehouse}/purge-jobs", FunctionGroup.ADMIN),
  /** A warehouse's dropped tables and views, kept for undrop by its {@code drop.retention}. */
  LIST_DROPPED_OBJECTS(
      "listDroppedObjects",
      "GET",
      "/admin/v1/warehouses/{warehouse}/dropped-objects",
      FunctionGroup.ADMIN),
  /** Puts a dropped table or view back, under its old name or a new one. */
  UNDROP_OBJECT(
      "undropObject",
      "POST",
      "/admin/v1/warehouses/{warehouse}/dropped-objects/{object}/undrop",
      FunctionGroup.ADMIN),
  /** One purge job, with its last error. */
  GET_PURGE_JOB(
      "getPurgeJob",
      "GET",
      "/admin/v1/warehouses/{warehouse}/purge-jobs/{job}",
      FunctionGroup.ADMIN),
  /** Retries a failed purge job: it is queued again and sent through the purge outbox. */
  REDRIVE_PURGE_JOB(
      "redrivePurgeJob",
      "POST",
      "/admin/v1/warehouses/{warehouse}/purge-jobs/{job}/redrive",
      FunctionGroup.ADMIN),
  /** A warehouse's table maintenance runs. */
  LIST_MAINTENANCE_JOBS(
      "listMaintenanceJobs",
      "GET",
      "/admin/v1/warehouses/{warehouse}/maintenance-jobs",
      FunctionGroup.ADMIN),
  /** Starts a maintenance run of one table now. */
  START_MAINTENANCE(
      "startMaintenance",
      "POST",
      "/admin/v1/warehouses/{warehouse}/maintenance-jobs",
      FunctionGroup.ADMIN),

  HEALTH("health", "GET", "/healthz", FunctionGroup.READ),
  READY("ready", "GET", "/readyz", FunctionGroup.READ);

  private static final Map<String, Route> BY_KEY = new HashMap<>();

  static {
    for (Route route : values()) {
      BY_KEY.put(route.routeKey(), route);
    }
  }

  private final String operationId;
  private final String method;
  private final String path;
  private final List<String> segments;
  private final FunctionGroup group;

  Route(String operationId, String method, String path, FunctionGroup group) {
    this.operationId = operationId;
    this.method = method;
    this.path = path;
    this.segments = List.of(path.substring(1).split("/"));
    this.group = group;
  }

  /** The operation id of the Iceberg REST specification, e.g. {@code loadTable}. */
  public String operationId() {
    return operationId;
  }

  public String method() {
    return method;
  }

  /** The path template, e.g. {@code /v1/{prefix}/namespaces/{namespace}}. */
  public String path() {
    return path;
  }

  /** The API Gateway route key, e.g. {@code GET /v1/{prefix}/namespaces}. */
  public String routeKey() {
    return method + " " + path;
  }

  public FunctionGroup group() {
    return group;
  }

  /**
   * Whether a request must carry a valid bearer token: every route but the probes (and the routes
   * that hand out tokens and their keys).
   */
  public boolean requiresAuthentication() {
    return this != HEALTH && this != READY && this != GET_TOKEN && this != GET_JWKS;
  }

  /**
   * Whether this route belongs to the Iceberg REST API and is listed in {@code endpoints}: not the
   * config and token routes, which a client calls before it reads the list.
   */
  public boolean isCatalogEndpoint() {
    return path.startsWith("/v1/") && this != GET_CONFIG && this != GET_TOKEN;
  }

  /** The route for an API Gateway route key, if any. */
  public static Optional<Route> forRouteKey(String routeKey) {
    return Optional.ofNullable(BY_KEY.get(routeKey));
  }

  /**
   * Matches a decoded request path, as API Gateway would: a template variable matches exactly one
   * non-empty path segment.
   */
  public static Optional<RouteMatch> match(String method, String decodedPath) {
    String[] parts = decodedPath.startsWith("/") ? decodedPath.substring(1).split("/", -1) : null;
    if (parts == null) {
      return Optional.empty();
    }
    for (Route route : values()) {
      if (route.method.equals(method)) {
        Map<String, String> params = route.bind(parts);
        if (params != null) {
          return Optional.of(new RouteMatch(route, params));
        }
      }
    }
    return Optional.empty();
  }

  /** Whether a decoded path matches this route's template for some method. */
  public static boolean pathExists(String decodedPath) {
    return !allowedMethods(decodedPath).isEmpty();
  }

  /**
   * The methods some route serves on a decoded path, in alphabetical order: what a 405 lists in its
   * {@code Allow} header. Empty for a path no route has.
   */
  public static SortedSet<String> allowedMethods(String decodedPath) {
    String[] parts = decodedPath.startsWith("/") ? decodedPath.substring(1).split("/", -1) : null;
    SortedSet<String> methods = new TreeSet<>();
    if (parts != null) {
      Arrays.stream(values())
          .filter(r -> r.bind(parts) != null)
          .forEach(r -> methods.add(r.method));
    }
    return methods;
  }

  private Map<String, String> bind(String[] parts) {
    if (parts.length != segments.size()) {
      return null;
    }
    Map<String, String> params = new HashMap<>();
    for (int i = 0; i < parts.length; i++) {
      String template = segments.get(i);
      if (template.startsWith("{")) {
        if (parts[i].isEmpty()) {
          return null;
        }
        params.put(template.substring(1, template.length() - 1), parts[i]);
      } else if (!template.equals(parts[i])) {
        return null;
      }
    }
    return params;
  }
}
