package dev.puddle.core.access;

import dev.puddle.contract.Route;
import dev.puddle.core.api.Request;
import dev.puddle.core.events.CatalogObjectType;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;

/**
 * The one authorization policy: which {@link Operation} a request performs, and whether its caller
 * may. Every route, the management API and credential vending included, is decided here and nowhere
 * else. A request whose route and query decide its operation is checked before anything runs
 * ({@link #ofRequest}); one whose body decides it (a commit's updates, a rename's target) is
 * checked once its body is parsed, through the refinements below, before anything changes.
 */
public final class AccessPolicy {
  /** Routes whose operation, or the securables it applies to, only the body tells. */
  private static final Set<Route> DECIDED_BY_BODY =
      EnumSet.of(
          Route.CREATE_NAMESPACE,
          Route.REGISTER_TABLE,
          Route.UPDATE_TABLE,
          Route.RENAME_TABLE,
          Route.REPORT_METRICS,
          Route.SIGN_REQUEST,
          Route.COMMIT_TRANSACTION,
          Route.RENAME_VIEW);

  /** Each route's operations of kind {@link Operation.Kind#PERFORM}: at least one each. */
  private static final Map<Route, List<Operation>> PERFORMED = new EnumMap<>(Route.class);

  static {
    for (Route route : Route.values()) {
      List<Operation> operations =
          Arrays.stream(Operation.values())
              .filter(op -> op.kind() == Operation.Kind.PERFORM && op.routes().contains(route))
              .toList();
      if (operations.isEmpty()) {
        throw new IllegalStateException("No operation authorizes route " + route);
      }
      PERFORMED.put(route, operations);
    }
  }

  private AccessPolicy() {}

  /**
   * The operation a request performs as its route and query decide, to check before it runs; empty
   * if its body decides (see {@link #commit}, {@link #register}, {@link #report}, {@link #sign},
   * and the namespace and rename operations, whose securables the body names).
   */
  public static Optional<Operation> ofRequest(Request request) {
    Route route = request.route();
    if (DECIDED_BY_BODY.contains(route)) {
      return Optional.empty();
    }
    return Optional.of(
        switch (route) {
          case LIST_NAMESPACES ->
              request.queryParameter("parent").filter(parent -> !parent.isEmpty()).isPresent()
                  ? Operation.LIST_CHILD_NAMESPACES
                  : Operation.LIST_TOP_LEVEL_NAMESPACES;
          case DROP_TABLE ->
              Boolean.parseBoolean(request.queryParameter("purgeRequested").orElse("false"))
                  ? Operation.DROP_TABLE_WITH_PURGE
                  : Operation.DROP_TABLE;
          default -> only(route);
        });
  }

  /**
   * A table commit: completing a staged create, changing snapshots or refs (data), or anything else
   * (properties, schema, specs, orders).
   */
  public static Operation commit(boolean createsTable, List<MetadataUpdate> updates) {
    if (createsTable) {
      return Operation.COMPLETE_STAGED_CREATE;
    }
    return updates.stream().anyMatch(AccessPolicy::changesData)
        ? Operation.UPDATE_TABLE_DATA
        : Operation.UPDATE_TABLE_PROPERTIES;
  }

  /** A registration, replacing an existing table's metadata if {@code overwrite}. */
  public static Operation register(boolean overwrite) {
    return overwrite ? Operation.REGISTER_TABLE_OVERWRITE : Operation.REGISTER_TABLE;
  }

  /** A metrics report: a scan's reads the table's data, a commit's writes it. */
  public static Operation report(ReportMetricsRequest.ReportType type) {
    return type == ReportMetricsRequest.ReportType.COMMIT_REPORT
        ? Operation.REPORT_COMMIT_METRICS
        : Operation.REPORT_SCAN_METRICS;
  }

  /** A request to sign: one that changes the table's files, or one that only reads them. */
  public static Operation sign(boolean writes) {
    return writes ? Operation.SIGN_WRITE_REQUEST : Operation.SIGN_READ_REQUEST;
  }

  /** Whether the caller may perform {@code operation} on {@code targets}. */
  public static boolean allows(Operation operation, CallerAccess access, Targets targets) {
    return operation.rule().missing(access, targets).isEmpty();
  }

  /** Throws 403, naming what is missing, unless the caller may perform {@code operation}. */
  public static void authorize(Operation operation, CallerAccess access, Targets targets) {
    Optional<String> missing = operation.rule().missing(access, targets);
    if (missing.isPresent()) {
      throw new ForbiddenException(
          "Principal '%s' is not authorized: requires %s",
          access.caller().principal(), missing.get());
    }
  }

  /**
   * The credentials a table response may carry for the caller: read-write, read-only, or none, in
   * which case the request is refused with 403 before it changes anything.
   */
  public static AccessLevel delegation(CallerAccess access, TableIdentifier table) {
    Targets targets = Targets.object(table);
    if (allows(Operation.VEND_WRITE_CREDENTIALS, access, targets)) {
      return AccessLevel.WRITE;
    }
    if (allows(Operation.VEND_READ_CREDENTIALS, access, targets)) {
      return AccessLevel.READ;
    }
    throw new ForbiddenException(
        "Principal '%s' is not allowed to access the data of table %s",
        access.caller().principal(), table);
  }

  /**
   * Whether a table response of {@code route} carries vended credentials when asked: the routes the
   * table lets delegate, but {@code loadCredentials}, whose whole answer is credentials.
   */
  public static boolean carriesCredentials(Route route) {
    return route != Route.LOAD_CREDENTIALS
        && Operation.VEND_READ_CREDENTIALS.routes().contains(route);
  }

  /**
   * For a load or existence check the caller may not perform: the operation that, allowed, lets it
   * know the name holds the other kind of object, so that the request answers 404 as for any absent
   * one. Tables and views share one identifier space: a caller who may learn that a table of that
   * name exists learns nothing more from "no such view" (and the other way round), while engines
   * that look a name up as a view before they load it as a table (Trino) rely on that 404.
   */
  public static Optional<Operation> showsOtherKind(Route route) {
    return switch (route) {
      case LOAD_VIEW, VIEW_EXISTS -> Optional.of(Operation.TABLE_EXISTS);
      case LOAD_TABLE, TABLE_EXISTS -> Optional.of(Operation.VIEW_EXISTS);
      default -> Optional.empty();
    };
  }

  /**
   * Whether an event of the feed is shown to the caller: one of a table, view or namespace if the
   * caller may list that object, a management change ({@code type} null) if it manages access.
   */
  public static boolean showsEvent(
      CallerAccess access, CatalogObjectType type, Namespace namespace, String name) {
    if (type == null) {
      return allows(Operation.SHOW_MANAGEMENT_EVENT, access, Targets.catalog());
    }
    return switch (type) {
      case TABLE ->
          allows(
              Operation.SHOW_TABLE_EVENT,
              access,
              Targets.object(TableIdentifier.of(namespace, name)));
      case VIEW ->
          allows(
              Operation.SHOW_VIEW_EVENT,
              access,
              Targets.object(TableIdentifier.of(namespace, name)));
      case NAMESPACE ->
          allows(Operation.SHOW_NAMESPACE_EVENT, access, Targets.namespace(namespace));
    };
  }

  /** The operations a request of {@code route} may perform, as the table has them. */
  public static List<Operation> performedBy(Route route) {
    return PERFORMED.get(route);
  }

  /** The one operation of a route that has one. */
  private static Operation only(Route route) {
    List<Operation> operations = PERFORMED.get(route);
    if (operations.size() != 1) {
      throw new IllegalStateException(route + " resolves to one of " + operations);
    }
    return operations.get(0);
  }

  private static boolean changesData(MetadataUpdate update) {
    return update instanceof MetadataUpdate.AddSnapshot
        || update instanceof MetadataUpdate.RemoveSnapshots
        || update instanceof MetadataUpdate.SetSnapshotRef
        || update instanceof MetadataUpdate.RemoveSnapshotRef;
  }
}
