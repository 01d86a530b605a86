package dev.puddle.core.api;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.iceberg.rest.Endpoint;

/**
 * The route table: every HTTP operation Puddle serves, with the privilege it requires and the
 * function group that serves it. It is the single source for the request router, the CDK routes,
 * the local server and the {@code endpoints} list of {@code GET /v1/config}.
 *
 * <p>Operation ids and path templates are those of the Iceberg REST catalog specification, apart
 * from Puddle's own routes: probes, the token issuer's key set and the management API under {@code
 * /admin}.
 */
public enum Route {
  GET_CONFIG("getConfig", "GET", "/v1/config", Privilege.NONE, FunctionGroup.READ),

  /** Puddle's own token issuer (OAuth2 client credentials and token exchange). */
  GET_TOKEN("getToken", "POST", "/v1/oauth/tokens", Privilege.NONE, FunctionGroup.TOKEN),

  /** The public keys of Puddle's own token issuer, as a JWKS document. */
  GET_JWKS("getJwks", "GET", "/.well-known/jwks.json", Privilege.NONE, FunctionGroup.TOKEN),

  LIST_NAMESPACES(
      "listNamespaces", Endpoint.V1_LIST_NAMESPACES, Privilege.NAMESPACE_LIST, FunctionGroup.READ),
  CREATE_NAMESPACE(
      "createNamespace",
      Endpoint.V1_CREATE_NAMESPACE,
      Privilege.NAMESPACE_CREATE,
      FunctionGroup.WRITE),
  LOAD_NAMESPACE(
      "loadNamespaceMetadata",
      Endpoint.V1_LOAD_NAMESPACE,
      Privilege.NAMESPACE_READ_PROPERTIES,
      FunctionGroup.READ),
  NAMESPACE_EXISTS(
      "namespaceExists",
      Endpoint.V1_NAMESPACE_EXISTS,
      Privilege.NAMESPACE_LIST,
      FunctionGroup.READ),
  DROP_NAMESPACE(
      "dropNamespace", Endpoint.V1_DELETE_NAMESPACE, Privilege.NAMESPACE_DROP, FunctionGroup.WRITE),
  UPDATE_NAMESPACE_PROPERTIES(
      "updateProperties",
      Endpoint.V1_UPDATE_NAMESPACE,
      Privilege.NAMESPACE_WRITE_PROPERTIES,
      FunctionGroup.WRITE),

  LIST_TABLES("listTables", Endpoint.V1_LIST_TABLES, Privilege.TABLE_LIST, FunctionGroup.READ),
  CREATE_TABLE("createTable", Endpoint.V1_CREATE_TABLE, Privilege.TABLE_CREATE, FunctionGroup.WRITE),
  REGISTER_TABLE(
      "registerTable", Endpoint.V1_REGISTER_TABLE, Privilege.TABLE_CREATE, FunctionGroup.WRITE),
  LOAD_TABLE(
      "loadTable", Endpoint.V1_LOAD_TABLE, Privilege.TABLE_READ_PROPERTIES, FunctionGroup.READ),
  TABLE_EXISTS(
      "tableExists", Endpoint.V1_TABLE_EXISTS, Privilege.TABLE_LIST, FunctionGroup.READ),
  LOAD_CREDENTIALS(
      "loadCredentials",
      Endpoint.V1_TABLE_CREDENTIALS,
      Privilege.TABLE_READ_DATA,
      FunctionGroup.READ),
  UPDATE_TABLE(
      "updateTable", Endpoint.V1_UPDATE_TABLE, Privilege.TABLE_WRITE_PROPERTIES, FunctionGroup.WRITE),
  DROP_TABLE("dropTable", Endpoint.V1_DELETE_TABLE, Privilege.TABLE_DROP, FunctionGroup.WRITE),
  RENAME_TABLE("renameTable", Endpoint.V1_RENAME_TABLE, Privilege.TABLE_DROP, FunctionGroup.WRITE),
  REPORT_METRICS(
      "reportMetrics", Endpoint.V1_REPORT_METRICS, Privilege.TABLE_READ_DATA, FunctionGroup.WRITE),
  COMMIT_TRANSACTION(
      "commitTransaction",
      Endpoint.V1_COMMIT_TRANSACTION,
      Privilege.TABLE_WRITE_PROPERTIES,
      FunctionGroup.WRITE),

  LIST_VIEWS("listViews", Endpoint.V1_LIST_VIEWS, Privilege.VIEW_LIST, FunctionGroup.READ),
  CREATE_VIEW("createView", Endpoint.V1_CREATE_VIEW, Privilege.VIEW_CREATE, FunctionGroup.WRITE),
  REGISTER_VIEW(
      "registerView", Endpoint.V1_REGISTER_VIEW, Privilege.VIEW_CREATE, FunctionGroup.WRITE),
  LOAD_VIEW("loadView", Endpoint.V1_LOAD_VIEW, Privilege.VIEW_READ_PROPERTIES, FunctionGroup.READ),
  VIEW_EXISTS(
      "viewExists", Endpoint.V1_VIEW_EXISTS, Privilege.VIEW_LIST, FunctionGroup.READ),
  REPLACE_VIEW(
      "replaceView", Endpoint.V1_UPDATE_VIEW, Privilege.VIEW_WRITE_PROPERTIES, FunctionGroup.WRITE),
  DROP_VIEW("dropView", Endpoint.V1_DELETE_VIEW, Privilege.VIEW_DROP, FunctionGroup.WRITE),
  RENAME_VIEW("renameView", Endpoint.V1_RENAME_VIEW, Privilege.VIEW_DROP, FunctionGroup.WRITE),

  /**
   * Puddle's own management API, not part of the Iceberg REST specification: warehouses,
   * principals, principal roles, catalog roles and grants, shaped after Apache Polaris's.
   */
  LIST_WAREHOUSES(
      "listWarehouses",
      "GET",
      "/admin/v1/warehouses",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  CREATE_WAREHOUSE(
      "createWarehouse",
      "POST",
      "/admin/v1/warehouses",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  GET_WAREHOUSE(
      "getWarehouse",
      "GET",
      "/admin/v1/warehouses/{warehouse}",
      Privilege.CATALOG_READ_PROPERTIES,
      FunctionGroup.ADMIN),
  DELETE_WAREHOUSE(
      "deleteWarehouse",
      "DELETE",
      "/admin/v1/warehouses/{warehouse}",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  LIST_PRINCIPALS(
      "listPrincipals",
      "GET",
      "/admin/v1/principals",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  CREATE_PRINCIPAL(
      "createPrincipal",
      "POST",
      "/admin/v1/principals",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  GET_PRINCIPAL(
      "getPrincipal",
      "GET",
      "/admin/v1/principals/{principal}",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  DELETE_PRINCIPAL(
      "deletePrincipal",
      "DELETE",
      "/admin/v1/principals/{principal}",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  ROTATE_CREDENTIALS(
      "rotateCredentials",
      "POST",
      "/admin/v1/principals/{principal}/rotate",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  ASSIGN_PRINCIPAL_ROLE(
      "assignPrincipalRole",
      "PUT",
      "/admin/v1/principals/{principal}/principal-roles",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  REVOKE_PRINCIPAL_ROLE(
      "revokePrincipalRole",
      "DELETE",
      "/admin/v1/principals/{principal}/principal-roles/{principalRole}",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  LIST_PRINCIPAL_ROLES(
      "listPrincipalRoles",
      "GET",
      "/admin/v1/principal-roles",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  CREATE_PRINCIPAL_ROLE(
      "createPrincipalRole",
      "POST",
      "/admin/v1/principal-roles",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  DELETE_PRINCIPAL_ROLE(
      "deletePrincipalRole",
      "DELETE",
      "/admin/v1/principal-roles/{principalRole}",
      Privilege.SERVICE_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  ASSIGN_CATALOG_ROLE(
      "assignCatalogRoleToPrincipalRole",
      "PUT",
      "/admin/v1/principal-roles/{principalRole}/catalog-roles/{warehouse}",
      Privilege.CATALOG_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  REVOKE_CATALOG_ROLE(
      "revokeCatalogRoleFromPrincipalRole",
      "DELETE",
      "/admin/v1/principal-roles/{principalRole}/catalog-roles/{warehouse}/{catalogRole}",
      Privilege.CATALOG_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  LIST_CATALOG_ROLES(
      "listCatalogRoles",
      "GET",
      "/admin/v1/warehouses/{warehouse}/catalog-roles",
      Privilege.CATALOG_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  CREATE_CATALOG_ROLE(
      "createCatalogRole",
      "POST",
      "/admin/v1/warehouses/{warehouse}/catalog-roles",
      Privilege.CATALOG_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  DELETE_CATALOG_ROLE(
      "deleteCatalogRole",
      "DELETE",
      "/admin/v1/warehouses/{warehouse}/catalog-roles/{catalogRole}",
      Privilege.CATALOG_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  LIST_GRANTS(
      "listGrantsForCatalogRole",
      "GET",
      "/admin/v1/warehouses/{warehouse}/catalog-roles/{catalogRole}/grants",
      Privilege.CATALOG_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  ADD_GRANT(
      "addGrantToCatalogRole",
      "PUT",
      "/admin/v1/warehouses/{warehouse}/catalog-roles/{catalogRole}/grants",
      Privilege.CATALOG_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  REVOKE_GRANT(
      "revokeGrantFromCatalogRole",
      "POST",
      "/admin/v1/warehouses/{warehouse}/catalog-roles/{catalogRole}/grants",
      Privilege.CATALOG_MANAGE_ACCESS,
      FunctionGroup.ADMIN),
  /** A warehouse's purge jobs. */
  LIST_PURGE_JOBS(
      "listPurgeJobs",
      "GET",
      "/admin/v1/warehouses/{warehouse}/purge-jobs",
      Privilege.CATALOG_MANAGE_CONTENT,
      FunctionGroup.ADMIN),

  HEALTH("health", "GET", "/healthz", Privilege.NONE, FunctionGroup.READ),
  READY("ready", "GET", "/readyz", Privilege.NONE, FunctionGroup.READ);

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
  private final Privilege privilege;
  private final FunctionGroup group;

  Route(String operationId, Endpoint endpoint, Privilege privilege, FunctionGroup group) {
    this(operationId, endpoint.httpMethod(), endpoint.path(), privilege, group);
  }

  Route(String operationId, String method, String path, Privilege privilege, FunctionGroup group) {
    this.operationId = operationId;
    this.method = method;
    this.path = path;
    this.segments = List.of(path.substring(1).split("/"));
    this.privilege = privilege;
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

  public Privilege privilege() {
    return privilege;
  }

  public FunctionGroup group() {
    return group;
  }

  /**
   * Whether a request must carry a valid bearer token: every route but the probes (and the
   * routes that hand out tokens and their keys).
   */
  public boolean requiresAuthentication() {
    return this != HEALTH && this != READY && this != GET_TOKEN && this != GET_JWKS;
  }

  /**
   * Whether this route belongs to the Iceberg REST API and is listed in {@code endpoints}: not
   * the config and token routes, which a client calls before it reads the list.
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
   * The methods some route serves on a decoded path, in alphabetical order: what a 405 lists in
   * its {@code Allow} header. Empty for a path no route has.
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
