package dev.puddle.core.rest;

import dev.puddle.core.access.CallerAccess;
import dev.puddle.core.access.Securable;
import dev.puddle.core.api.Privilege;
import dev.puddle.core.api.Route;
import dev.puddle.core.catalog.TableCommit;
import java.util.Arrays;
import java.util.List;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;

/**
 * Which privilege each catalog request needs, and on what, as Apache Polaris decides it: the
 * route's privilege ({@link Route#privilege()}) on the securable its path names: the catalog for
 * catalog-wide routes, the parent namespace for creates, the object for everything else. Listings
 * and existence checks need only that the caller may see what they address, and show only what it
 * may see. Requests whose privilege depends on their body are checked by their endpoint, once
 * parsed, through the methods below.
 */
final class Authorization {
  private Authorization() {}

  /** Checks what the request's path decides; 403 if the caller lacks it. */
  static void authorize(Scope scope) {
    CallerAccess access = scope.access();
    Route route = scope.request().route();
    switch (route) {
      case LIST_NAMESPACES -> {
        Namespace parent = Names.namespace(scope.request().queryParameter("parent").orElse(null));
        if (parent.isEmpty()) {
          access.requireCatalogRole();
        } else {
          access.requireVisible(Securable.namespace(parent));
        }
      }
      case NAMESPACE_EXISTS, LIST_TABLES, LIST_VIEWS ->
          access.requireVisible(Securable.namespace(scope.namespace()));
      case LOAD_NAMESPACE, DROP_NAMESPACE, UPDATE_NAMESPACE_PROPERTIES ->
          access.require(route.privilege(), Securable.namespace(scope.namespace()));
      case CREATE_TABLE, REGISTER_TABLE, CREATE_VIEW, REGISTER_VIEW ->
          access.require(route.privilege(), Securable.namespace(scope.namespace()));
      case LOAD_TABLE, TABLE_EXISTS, LOAD_CREDENTIALS ->
          access.require(route.privilege(), Securable.table(scope.table()));
      case DROP_TABLE -> {
        Securable table = Securable.table(scope.table());
        access.require(route.privilege(), table);
        if (Boolean.parseBoolean(
            scope.request().queryParameter("purgeRequested").orElse("false"))) {
          // a purge deletes the table's data files
          access.require(Privilege.TABLE_WRITE_DATA, table);
        }
      }
      case LOAD_VIEW, VIEW_EXISTS, REPLACE_VIEW, DROP_VIEW ->
          access.require(route.privilege(), Securable.view(scope.view()));
      case LIST_PURGE_JOBS -> access.require(route.privilege(), Securable.catalog());
      case CREATE_NAMESPACE,
          UPDATE_TABLE,
          RENAME_TABLE,
          RENAME_VIEW,
          REPORT_METRICS,
          COMMIT_TRANSACTION -> {
        // decided by the body: see the methods below, called by the endpoints
      }
      default -> throw new IllegalStateException("Not a catalog route: " + route);
    }
  }

  /** {@code createNamespace}: NAMESPACE_CREATE on the parent (the catalog for a top level one). */
  static void createNamespace(Scope scope, Namespace namespace) {
    Namespace parent = Namespace.of(Arrays.copyOf(namespace.levels(), namespace.length() - 1));
    scope.access().require(Route.CREATE_NAMESPACE.privilege(), Securable.namespace(parent));
  }

  /**
   * A table commit: TABLE_CREATE on the namespace when it completes a staged create,
   * TABLE_WRITE_DATA when it changes snapshots, else TABLE_WRITE_PROPERTIES (the route's
   * privilege).
   */
  static void commit(
      Scope scope,
      TableIdentifier table,
      List<UpdateRequirement> requirements,
      List<MetadataUpdate> updates) {
    if (TableCommit.creates(requirements)) {
      scope.access().require(Privilege.TABLE_CREATE, Securable.namespace(table.namespace()));
      return;
    }
    boolean data = updates.stream().anyMatch(Authorization::changesData);
    scope
        .access()
        .require(
            data ? Privilege.TABLE_WRITE_DATA : Route.UPDATE_TABLE.privilege(),
            Securable.table(table));
  }

  /**
   * A registration that overwrites an existing table replaces its metadata, snapshots included:
   * TABLE_WRITE_DATA on it, besides the route's TABLE_CREATE on the namespace.
   */
  static void overwrite(Scope scope, TableIdentifier table) {
    scope.access().require(Privilege.TABLE_WRITE_DATA, Securable.table(table));
  }

  /**
   * A rename: the route's privilege (TABLE_DROP, VIEW_DROP) on the source, create on the target.
   */
  static void rename(Scope scope, TableIdentifier source, TableIdentifier destination) {
    boolean view = scope.request().route() == Route.RENAME_VIEW;
    scope
        .access()
        .require(
            scope.request().route().privilege(),
            view ? Securable.view(source) : Securable.table(source));
    scope
        .access()
        .require(
            view ? Privilege.VIEW_CREATE : Privilege.TABLE_CREATE,
            Securable.namespace(destination.namespace()));
  }

  /** A metrics report: TABLE_READ_DATA for scan reports, TABLE_WRITE_DATA for commit reports. */
  static void reportMetrics(Scope scope, ReportMetricsRequest request) {
    scope
        .access()
        .require(
            request.reportType() == ReportMetricsRequest.ReportType.COMMIT_REPORT
                ? Privilege.TABLE_WRITE_DATA
                : Route.REPORT_METRICS.privilege(),
            Securable.table(scope.table()));
  }

  private static boolean changesData(MetadataUpdate update) {
    return update instanceof MetadataUpdate.AddSnapshot
        || update instanceof MetadataUpdate.RemoveSnapshots
        || update instanceof MetadataUpdate.SetSnapshotRef
        || update instanceof MetadataUpdate.RemoveSnapshotRef;
  }
}
