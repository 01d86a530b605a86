package dev.puddle.core.access;

import static dev.puddle.core.access.Rule.On.CATALOG;
import static dev.puddle.core.access.Rule.On.DESTINATION_NAMESPACE;
import static dev.puddle.core.access.Rule.On.NAMESPACE;
import static dev.puddle.core.access.Rule.On.PARENT_NAMESPACE;
import static dev.puddle.core.access.Rule.On.TABLE;
import static dev.puddle.core.access.Rule.On.VIEW;
import static dev.puddle.core.access.Rule.allOf;
import static dev.puddle.core.access.Rule.anyOf;
import static dev.puddle.core.access.Rule.anyone;
import static dev.puddle.core.access.Rule.catalogRole;
import static dev.puddle.core.access.Rule.holds;
import static dev.puddle.core.access.Rule.sees;
import static dev.puddle.core.access.Rule.serviceAdmin;

import dev.puddle.contract.Route;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The authorization table: every operation a request may perform, with the rule a caller must pass
 * for it and the routes whose requests resolve to it. A route resolves to one operation, or to one
 * of several as its query or body decides ({@link AccessPolicy}); a table response that carries
 * vended credentials also needs a delegation operation. Named as Apache Polaris names its {@code
 * PolarisAuthorizableOperation}s.
 */
public enum Operation {
  CHECK_HEALTH(anyone(), Route.HEALTH),
  CHECK_READINESS(anyone(), Route.READY),
  GET_TOKEN(anyone(), Route.GET_TOKEN),
  GET_JWKS(anyone(), Route.GET_JWKS),
  GET_CONFIG(catalogRole(), Route.GET_CONFIG),

  LIST_TOP_LEVEL_NAMESPACES(catalogRole(), Route.LIST_NAMESPACES),
  LIST_CHILD_NAMESPACES(sees(NAMESPACE), Route.LIST_NAMESPACES),
  /** A listed namespace is shown to a caller holding NAMESPACE_LIST on its parent… */
  SHOW_EVERY_CHILD_NAMESPACE(
      Kind.SHOW, holds(Privilege.NAMESPACE_LIST, NAMESPACE), Route.LIST_NAMESPACES),
  /** …or able to see the namespace itself. */
  SHOW_NAMESPACE(Kind.SHOW, sees(NAMESPACE), Route.LIST_NAMESPACES),
  CREATE_NAMESPACE(holds(Privilege.NAMESPACE_CREATE, PARENT_NAMESPACE), Route.CREATE_NAMESPACE),
  LOAD_NAMESPACE_METADATA(
      holds(Privilege.NAMESPACE_READ_PROPERTIES, NAMESPACE), Route.LOAD_NAMESPACE),
  NAMESPACE_EXISTS(sees(NAMESPACE), Route.NAMESPACE_EXISTS),
  DROP_NAMESPACE(holds(Privilege.NAMESPACE_DROP, NAMESPACE), Route.DROP_NAMESPACE),
  UPDATE_NAMESPACE_PROPERTIES(
      holds(Privilege.NAMESPACE_WRITE_PROPERTIES, NAMESPACE), Route.UPDATE_NAMESPACE_PROPERTIES),

  LIST_TABLES(sees(NAMESPACE), Route.LIST_TABLES),
  /** Every listed table is shown to a caller holding TABLE_LIST on their namespace… */
  SHOW_EVERY_TABLE(Kind.SHOW, holds(Privilege.TABLE_LIST, NAMESPACE), Route.LIST_TABLES),
  /** …else a listed table to one holding TABLE_LIST on it. */
  SHOW_TABLE(Kind.SHOW, holds(Privilege.TABLE_LIST, TABLE), Route.LIST_TABLES),
  CREATE_TABLE(holds(Privilege.TABLE_CREATE, NAMESPACE), Route.CREATE_TABLE),
  REGISTER_TABLE(holds(Privilege.TABLE_CREATE, NAMESPACE), Route.REGISTER_TABLE),
  /** A registration that replaces an existing table's metadata, snapshots included. */
  REGISTER_TABLE_OVERWRITE(
      allOf(holds(Privilege.TABLE_CREATE, NAMESPACE), holds(Privilege.TABLE_WRITE_DATA, TABLE)),
      Route.REGISTER_TABLE),
  LOAD_TABLE(holds(Privilege.TABLE_READ_PROPERTIES, TABLE), Route.LOAD_TABLE),
  TABLE_EXISTS(holds(Privilege.TABLE_LIST, TABLE), Route.TABLE_EXISTS),
  LOAD_CREDENTIALS(holds(Privilege.TABLE_READ_DATA, TABLE), Route.LOAD_CREDENTIALS),
  /**
   * Server-side scan planning lists the table's data files for the caller, so it needs what reading
   * them needs; a plan's state is further its own caller's alone (another's plan id is unknown).
   */
  PLAN_TABLE_SCAN(holds(Privilege.TABLE_READ_DATA, TABLE), Route.PLAN_TABLE_SCAN),
  FETCH_PLANNING_RESULT(holds(Privilege.TABLE_READ_DATA, TABLE), Route.FETCH_PLANNING_RESULT),
  CANCEL_PLANNING(holds(Privilege.TABLE_READ_DATA, TABLE), Route.CANCEL_PLANNING),
  FETCH_SCAN_TASKS(holds(Privilege.TABLE_READ_DATA, TABLE), Route.FETCH_SCAN_TASKS),
  /** A commit that changes only properties, schema, specs or orders. */
  UPDATE_TABLE_PROPERTIES(
      holds(Privilege.TABLE_WRITE_PROPERTIES, TABLE), Route.UPDATE_TABLE, Route.COMMIT_TRANSACTION),
  /** A commit that adds or removes snapshots or moves refs. */
  UPDATE_TABLE_DATA(
      holds(Privilege.TABLE_WRITE_DATA, TABLE), Route.UPDATE_TABLE, Route.COMMIT_TRANSACTION),
  /** The commit that completes a staged create. */
  COMPLETE_STAGED_CREATE(
      holds(Privilege.TABLE_CREATE, NAMESPACE), Route.UPDATE_TABLE, Route.COMMIT_TRANSACTION),
  DROP_TABLE(holds(Privilege.TABLE_DROP, TABLE), Route.DROP_TABLE),
  /** A drop whose purge deletes the table's files. */
  DROP_TABLE_WITH_PURGE(
      allOf(holds(Privilege.TABLE_DROP, TABLE), holds(Privilege.TABLE_WRITE_DATA, TABLE)),
      Route.DROP_TABLE),
  RENAME_TABLE(
      allOf(
          holds(Privilege.TABLE_DROP, TABLE), holds(Privilege.TABLE_CREATE, DESTINATION_NAMESPACE)),
      Route.RENAME_TABLE),
  REPORT_SCAN_METRICS(holds(Privilege.TABLE_READ_DATA, TABLE), Route.REPORT_METRICS),
  REPORT_COMMIT_METRICS(holds(Privilege.TABLE_WRITE_DATA, TABLE), Route.REPORT_METRICS),

  /** A signed S3 request that reads the table's files (GET, HEAD, a listing under it)… */
  SIGN_READ_REQUEST(holds(Privilege.TABLE_READ_DATA, TABLE), Route.SIGN_REQUEST),
  /** …or writes them (PUT, multipart uploads, DELETE, DeleteObjects). */
  SIGN_WRITE_REQUEST(holds(Privilege.TABLE_WRITE_DATA, TABLE), Route.SIGN_REQUEST),

  /** Vended credentials (or remote signing) that read and write the table's files… */
  VEND_WRITE_CREDENTIALS(
      Kind.DELEGATE,
      holds(Privilege.TABLE_WRITE_DATA, TABLE),
      Route.CREATE_TABLE,
      Route.REGISTER_TABLE,
      Route.LOAD_TABLE,
      Route.UPDATE_TABLE,
      Route.LOAD_CREDENTIALS),
  /** …or only read them, for a caller that may read but not write its data. */
  VEND_READ_CREDENTIALS(
      Kind.DELEGATE,
      holds(Privilege.TABLE_READ_DATA, TABLE),
      Route.CREATE_TABLE,
      Route.REGISTER_TABLE,
      Route.LOAD_TABLE,
      Route.UPDATE_TABLE,
      Route.LOAD_CREDENTIALS),

  LIST_VIEWS(sees(NAMESPACE), Route.LIST_VIEWS),
  /** Every listed view is shown to a caller holding VIEW_LIST on their namespace… */
  SHOW_EVERY_VIEW(Kind.SHOW, holds(Privilege.VIEW_LIST, NAMESPACE), Route.LIST_VIEWS),
  /** …else a listed view to one holding VIEW_LIST on it. */
  SHOW_VIEW(Kind.SHOW, holds(Privilege.VIEW_LIST, VIEW), Route.LIST_VIEWS),
  CREATE_VIEW(holds(Privilege.VIEW_CREATE, NAMESPACE), Route.CREATE_VIEW),
  REGISTER_VIEW(holds(Privilege.VIEW_CREATE, NAMESPACE), Route.REGISTER_VIEW),
  LOAD_VIEW(holds(Privilege.VIEW_READ_PROPERTIES, VIEW), Route.LOAD_VIEW),
  VIEW_EXISTS(holds(Privilege.VIEW_LIST, VIEW), Route.VIEW_EXISTS),
  REPLACE_VIEW(holds(Privilege.VIEW_WRITE_PROPERTIES, VIEW), Route.REPLACE_VIEW),
  DROP_VIEW(holds(Privilege.VIEW_DROP, VIEW), Route.DROP_VIEW),
  RENAME_VIEW(
      allOf(holds(Privilege.VIEW_DROP, VIEW), holds(Privilege.VIEW_CREATE, DESTINATION_NAMESPACE)),
      Route.RENAME_VIEW),

  QUERY_EVENTS(catalogRole(), Route.QUERY_EVENTS),
  /** An event of a table is shown to a caller that may list the table… */
  SHOW_TABLE_EVENT(Kind.SHOW, holds(Privilege.TABLE_LIST, TABLE), Route.QUERY_EVENTS),
  /** …of a view, to one that may list the view… */
  SHOW_VIEW_EVENT(Kind.SHOW, holds(Privilege.VIEW_LIST, VIEW), Route.QUERY_EVENTS),
  /** …of a namespace, to one that can see the namespace… */
  SHOW_NAMESPACE_EVENT(Kind.SHOW, sees(NAMESPACE), Route.QUERY_EVENTS),
  /** …and a management change, to one that manages the warehouse's access. */
  SHOW_MANAGEMENT_EVENT(Kind.SHOW, manageAccess(), Route.QUERY_EVENTS),

  LIST_PURGE_JOBS(holds(Privilege.CATALOG_MANAGE_CONTENT, CATALOG), Route.LIST_PURGE_JOBS),
  LIST_DROPPED_OBJECTS(
      holds(Privilege.CATALOG_MANAGE_CONTENT, CATALOG), Route.LIST_DROPPED_OBJECTS),
  /**
   * On the warehouse, not the object: a dropped object is in no namespace's tree until it is back,
   * and its own grants return only with it.
   */
  UNDROP_OBJECT(holds(Privilege.CATALOG_MANAGE_CONTENT, CATALOG), Route.UNDROP_OBJECT),
  GET_PURGE_JOB(holds(Privilege.CATALOG_MANAGE_CONTENT, CATALOG), Route.GET_PURGE_JOB),
  REDRIVE_PURGE_JOB(holds(Privilege.CATALOG_MANAGE_CONTENT, CATALOG), Route.REDRIVE_PURGE_JOB),
  LIST_MAINTENANCE_JOBS(
      holds(Privilege.CATALOG_MANAGE_CONTENT, CATALOG), Route.LIST_MAINTENANCE_JOBS),
  /** Expires a table's snapshots and deletes its unreachable files, as its properties say. */
  START_MAINTENANCE(holds(Privilege.CATALOG_MANAGE_CONTENT, CATALOG), Route.START_MAINTENANCE),

  LIST_WAREHOUSES(serviceAdmin(), Route.LIST_WAREHOUSES),
  CREATE_WAREHOUSE(serviceAdmin(), Route.CREATE_WAREHOUSE),
  GET_WAREHOUSE(
      anyOf(serviceAdmin(), holds(Privilege.CATALOG_READ_PROPERTIES, CATALOG)),
      Route.GET_WAREHOUSE),
  DELETE_WAREHOUSE(serviceAdmin(), Route.DELETE_WAREHOUSE),
  /** The service admin's alone: a warehouse's properties name e.g. the role vending assumes. */
  UPDATE_WAREHOUSE_PROPERTIES(serviceAdmin(), Route.UPDATE_WAREHOUSE_PROPERTIES),
  LIST_PRINCIPALS(serviceAdmin(), Route.LIST_PRINCIPALS),
  CREATE_PRINCIPAL(serviceAdmin(), Route.CREATE_PRINCIPAL),
  GET_PRINCIPAL(serviceAdmin(), Route.GET_PRINCIPAL),
  DELETE_PRINCIPAL(serviceAdmin(), Route.DELETE_PRINCIPAL),
  ROTATE_CREDENTIALS(serviceAdmin(), Route.ROTATE_CREDENTIALS),
  ASSIGN_PRINCIPAL_ROLE(serviceAdmin(), Route.ASSIGN_PRINCIPAL_ROLE),
  REVOKE_PRINCIPAL_ROLE(serviceAdmin(), Route.REVOKE_PRINCIPAL_ROLE),
  LIST_PRINCIPAL_ROLES(serviceAdmin(), Route.LIST_PRINCIPAL_ROLES),
  CREATE_PRINCIPAL_ROLE(serviceAdmin(), Route.CREATE_PRINCIPAL_ROLE),
  DELETE_PRINCIPAL_ROLE(serviceAdmin(), Route.DELETE_PRINCIPAL_ROLE),
  ASSIGN_CATALOG_ROLE(manageAccess(), Route.ASSIGN_CATALOG_ROLE),
  REVOKE_CATALOG_ROLE(manageAccess(), Route.REVOKE_CATALOG_ROLE),
  LIST_CATALOG_ROLES(manageAccess(), Route.LIST_CATALOG_ROLES),
  CREATE_CATALOG_ROLE(manageAccess(), Route.CREATE_CATALOG_ROLE),
  DELETE_CATALOG_ROLE(manageAccess(), Route.DELETE_CATALOG_ROLE),
  LIST_GRANTS(manageAccess(), Route.LIST_GRANTS),
  ADD_GRANT(manageAccess(), Route.ADD_GRANT),
  REVOKE_GRANT(manageAccess(), Route.REVOKE_GRANT);

  /** What an operation is to the requests of its routes. */
  public enum Kind {
    /** What the request does. */
    PERFORM,
    /** Whether an item of a listing is shown to the caller. */
    SHOW,
    /** Which credentials a table response carries. */
    DELEGATE
  }

  private final Kind kind;
  private final Rule rule;
  private final Set<Route> routes;

  Operation(Rule rule, Route route, Route... more) {
    this(Kind.PERFORM, rule, route, more);
  }

  Operation(Kind kind, Rule rule, Route route, Route... more) {
    this.kind = kind;
    this.rule = rule;
    this.routes = Collections.unmodifiableSet(EnumSet.of(route, more));
  }

  public Kind kind() {
    return kind;
  }

  /** What a caller must have to perform this operation. */
  public Rule rule() {
    return rule;
  }

  /** The routes whose requests may resolve to this operation. */
  public Set<Route> routes() {
    return routes;
  }

  /** A warehouse's catalog roles and grants: the service admin, or who manages its access. */
  private static Rule manageAccess() {
    return anyOf(serviceAdmin(), holds(Privilege.CATALOG_MANAGE_ACCESS, CATALOG));
  }
}
