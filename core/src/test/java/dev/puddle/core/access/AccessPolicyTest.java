package dev.puddle.core.access;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.contract.Route;
import dev.puddle.core.api.Request;
import dev.puddle.core.auth.Caller;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.junit.jupiter.api.Test;

/**
 * The whole authorization table, walked: every operation against callers holding each privilege on
 * the catalog, the parent namespace, the namespace, the object, the rename's destination and an
 * unrelated namespace, each alone and each pair, with and without {@code service_admin}. What each
 * operation needs is written out below, a second time, as the specification the table must meet; an
 * operation or route added without a line here fails.
 */
class AccessPolicyTest {
  private static final Namespace PARENT = Namespace.of("sales");
  private static final Namespace NAMESPACE = Namespace.of("sales", "eu");
  private static final TableIdentifier OBJECT = TableIdentifier.of(NAMESPACE, "orders");
  private static final TableIdentifier DESTINATION =
      TableIdentifier.of(Namespace.of("archive"), "orders");
  private static final Targets TARGETS = new Targets(NAMESPACE, OBJECT, DESTINATION);

  /**
   * What each operation needs: {@code anyone}, {@code service admin}, {@code catalog role}, {@code
   * sees <on>}, or {@code <PRIVILEGE> on <on>}; {@code +} joins what is needed together, {@code |}
   * alternatives.
   */
  private static final Map<Operation, String> NEEDS =
      Map.ofEntries(
          entry(Operation.CHECK_HEALTH, "anyone"),
          entry(Operation.CHECK_READINESS, "anyone"),
          entry(Operation.GET_TOKEN, "anyone"),
          entry(Operation.GET_JWKS, "anyone"),
          entry(Operation.GET_CONFIG, "catalog role"),
          entry(Operation.LIST_TOP_LEVEL_NAMESPACES, "catalog role"),
          entry(Operation.LIST_CHILD_NAMESPACES, "sees NAMESPACE"),
          entry(Operation.SHOW_EVERY_CHILD_NAMESPACE, "NAMESPACE_LIST on NAMESPACE"),
          entry(Operation.SHOW_NAMESPACE, "sees NAMESPACE"),
          entry(Operation.CREATE_NAMESPACE, "NAMESPACE_CREATE on PARENT_NAMESPACE"),
          entry(Operation.LOAD_NAMESPACE_METADATA, "NAMESPACE_READ_PROPERTIES on NAMESPACE"),
          entry(Operation.NAMESPACE_EXISTS, "sees NAMESPACE"),
          entry(Operation.DROP_NAMESPACE, "NAMESPACE_DROP on NAMESPACE"),
          entry(Operation.UPDATE_NAMESPACE_PROPERTIES, "NAMESPACE_WRITE_PROPERTIES on NAMESPACE"),
          entry(Operation.LIST_TABLES, "sees NAMESPACE"),
          entry(Operation.SHOW_EVERY_TABLE, "TABLE_LIST on NAMESPACE"),
          entry(Operation.SHOW_TABLE, "TABLE_LIST on TABLE"),
          entry(Operation.CREATE_TABLE, "TABLE_CREATE on NAMESPACE"),
          entry(Operation.REGISTER_TABLE, "TABLE_CREATE on NAMESPACE"),
          entry(
              Operation.REGISTER_TABLE_OVERWRITE,
              "TABLE_CREATE on NAMESPACE + TABLE_WRITE_DATA on TABLE"),
          entry(Operation.LOAD_TABLE, "TABLE_READ_PROPERTIES on TABLE"),
          entry(Operation.TABLE_EXISTS, "TABLE_LIST on TABLE"),
          entry(Operation.LOAD_CREDENTIALS, "TABLE_READ_DATA on TABLE"),
          entry(Operation.PLAN_TABLE_SCAN, "TABLE_READ_DATA on TABLE"),
          entry(Operation.FETCH_PLANNING_RESULT, "TABLE_READ_DATA on TABLE"),
          entry(Operation.CANCEL_PLANNING, "TABLE_READ_DATA on TABLE"),
          entry(Operation.FETCH_SCAN_TASKS, "TABLE_READ_DATA on TABLE"),
          entry(Operation.UPDATE_TABLE_PROPERTIES, "TABLE_WRITE_PROPERTIES on TABLE"),
          entry(Operation.UPDATE_TABLE_DATA, "TABLE_WRITE_DATA on TABLE"),
          entry(Operation.COMPLETE_STAGED_CREATE, "TABLE_CREATE on NAMESPACE"),
          entry(Operation.DROP_TABLE, "TABLE_DROP on TABLE"),
          entry(Operation.DROP_TABLE_WITH_PURGE, "TABLE_DROP on TABLE + TABLE_WRITE_DATA on TABLE"),
          entry(
              Operation.RENAME_TABLE,
              "TABLE_DROP on TABLE + TABLE_CREATE on DESTINATION_NAMESPACE"),
          entry(Operation.REPORT_SCAN_METRICS, "TABLE_READ_DATA on TABLE"),
          entry(Operation.REPORT_COMMIT_METRICS, "TABLE_WRITE_DATA on TABLE"),
          entry(Operation.SIGN_READ_REQUEST, "TABLE_READ_DATA on TABLE"),
          entry(Operation.SIGN_WRITE_REQUEST, "TABLE_WRITE_DATA on TABLE"),
          entry(Operation.VEND_WRITE_CREDENTIALS, "TABLE_WRITE_DATA on TABLE"),
          entry(Operation.VEND_READ_CREDENTIALS, "TABLE_READ_DATA on TABLE"),
          entry(Operation.LIST_VIEWS, "sees NAMESPACE"),
          entry(Operation.SHOW_EVERY_VIEW, "VIEW_LIST on NAMESPACE"),
          entry(Operation.SHOW_VIEW, "VIEW_LIST on VIEW"),
          entry(Operation.CREATE_VIEW, "VIEW_CREATE on NAMESPACE"),
          entry(Operation.REGISTER_VIEW, "VIEW_CREATE on NAMESPACE"),
          entry(Operation.LOAD_VIEW, "VIEW_READ_PROPERTIES on VIEW"),
          entry(Operation.VIEW_EXISTS, "VIEW_LIST on VIEW"),
          entry(Operation.REPLACE_VIEW, "VIEW_WRITE_PROPERTIES on VIEW"),
          entry(Operation.DROP_VIEW, "VIEW_DROP on VIEW"),
          entry(Operation.RENAME_VIEW, "VIEW_DROP on VIEW + VIEW_CREATE on DESTINATION_NAMESPACE"),
          entry(Operation.QUERY_EVENTS, "catalog role"),
          entry(Operation.SHOW_TABLE_EVENT, "TABLE_LIST on TABLE"),
          entry(Operation.SHOW_VIEW_EVENT, "VIEW_LIST on VIEW"),
          entry(Operation.SHOW_NAMESPACE_EVENT, "sees NAMESPACE"),
          entry(
              Operation.SHOW_MANAGEMENT_EVENT, "service admin | CATALOG_MANAGE_ACCESS on CATALOG"),
          entry(Operation.LIST_PURGE_JOBS, "CATALOG_MANAGE_CONTENT on CATALOG"),
          entry(Operation.LIST_DROPPED_OBJECTS, "CATALOG_MANAGE_CONTENT on CATALOG"),
          entry(Operation.UNDROP_OBJECT, "CATALOG_MANAGE_CONTENT on CATALOG"),
          entry(Operation.GET_PURGE_JOB, "CATALOG_MANAGE_CONTENT on CATALOG"),
          entry(Operation.REDRIVE_PURGE_JOB, "CATALOG_MANAGE_CONTENT on CATALOG"),
          entry(Operation.LIST_MAINTENANCE_JOBS, "CATALOG_MANAGE_CONTENT on CATALOG"),
          entry(Operation.START_MAINTENANCE, "CATALOG_MANAGE_CONTENT on CATALOG"),
          entry(Operation.LIST_WAREHOUSES, "service admin"),
          entry(Operation.CREATE_WAREHOUSE, "service admin"),
          entry(Operation.GET_WAREHOUSE, "service admin | CATALOG_READ_PROPERTIES on CATALOG"),
          entry(Operation.DELETE_WAREHOUSE, "service admin"),
          entry(Operation.UPDATE_WAREHOUSE_PROPERTIES, "service admin"),
          entry(Operation.LIST_PRINCIPALS, "service admin"),
          entry(Operation.CREATE_PRINCIPAL, "service admin"),
          entry(Operation.GET_PRINCIPAL, "service admin"),
          entry(Operation.DELETE_PRINCIPAL, "service admin"),
          entry(Operation.ROTATE_CREDENTIALS, "service admin"),
          entry(Operation.ASSIGN_PRINCIPAL_ROLE, "service admin"),
          entry(Operation.REVOKE_PRINCIPAL_ROLE, "service admin"),
          entry(Operation.LIST_PRINCIPAL_ROLES, "service admin"),
          entry(Operation.CREATE_PRINCIPAL_ROLE, "service admin"),
          entry(Operation.DELETE_PRINCIPAL_ROLE, "service admin"),
          entry(Operation.ASSIGN_CATALOG_ROLE, "service admin | CATALOG_MANAGE_ACCESS on CATALOG"),
          entry(Operation.REVOKE_CATALOG_ROLE, "service admin | CATALOG_MANAGE_ACCESS on CATALOG"),
          entry(Operation.LIST_CATALOG_ROLES, "service admin | CATALOG_MANAGE_ACCESS on CATALOG"),
          entry(Operation.CREATE_CATALOG_ROLE, "service admin | CATALOG_MANAGE_ACCESS on CATALOG"),
          entry(Operation.DELETE_CATALOG_ROLE, "service admin | CATALOG_MANAGE_ACCESS on CATALOG"),
          entry(Operation.LIST_GRANTS, "service admin | CATALOG_MANAGE_ACCESS on CATALOG"),
          entry(Operation.ADD_GRANT, "service admin | CATALOG_MANAGE_ACCESS on CATALOG"),
          entry(Operation.REVOKE_GRANT, "service admin | CATALOG_MANAGE_ACCESS on CATALOG"));

  /** Where the matrix's callers hold their privileges. */
  private static final List<Securable> PLACES =
      List.of(
          Securable.catalog(),
          Securable.namespace(PARENT),
          Securable.namespace(NAMESPACE),
          Securable.table(OBJECT),
          Securable.view(OBJECT),
          Securable.namespace(DESTINATION.namespace()),
          Securable.namespace(Namespace.of("marketing")));

  @Test
  void everyOperationIsSpecifiedAndEveryRoutePerformsOne() {
    assertThat(NEEDS.keySet()).containsExactlyInAnyOrder(Operation.values());
    for (Route route : Route.values()) {
      assertThat(AccessPolicy.performedBy(route)).as("%s", route).isNotEmpty();
    }
  }

  @Test
  void everyOperationAllowsExactlyTheCallersItsSpecificationAllows() {
    List<CallerAccess> callers = callers();
    int checked = 0;
    for (Operation operation : Operation.values()) {
      for (CallerAccess caller : callers) {
        boolean expected = allowedBySpecification(NEEDS.get(operation), caller);
        assertThat(AccessPolicy.allows(operation, caller, TARGETS))
            .as("%s for %s", operation, caller)
            .isEqualTo(expected);
        if (expected) {
          AccessPolicy.authorize(operation, caller, TARGETS);
        } else {
          assertThatThrownBy(() -> AccessPolicy.authorize(operation, caller, TARGETS))
              .as("%s for %s", operation, caller)
              .isInstanceOf(ForbiddenException.class)
              .hasMessageStartingWith("Principal 'alice' is not");
        }
        checked++;
      }
    }
    // every operation against no grant, each grant alone and each pair, with and without admin
    assertThat(checked).isGreaterThan(Operation.values().length * 1000);
  }

  @Test
  void theRouteAndQueryDecideTheOperationWhereTheyCan() {
    assertThat(operationOf(Route.LIST_NAMESPACES, Map.of()))
        .contains(Operation.LIST_TOP_LEVEL_NAMESPACES);
    assertThat(operationOf(Route.LIST_NAMESPACES, Map.of("parent", "sales")))
        .contains(Operation.LIST_CHILD_NAMESPACES);
    assertThat(operationOf(Route.DROP_TABLE, Map.of())).contains(Operation.DROP_TABLE);
    assertThat(operationOf(Route.DROP_TABLE, Map.of("purgeRequested", "true")))
        .contains(Operation.DROP_TABLE_WITH_PURGE);
    Set<Route> decidedByBody =
        EnumSet.of(
            Route.CREATE_NAMESPACE,
            Route.REGISTER_TABLE,
            Route.UPDATE_TABLE,
            Route.RENAME_TABLE,
            Route.REPORT_METRICS,
            Route.SIGN_REQUEST,
            Route.COMMIT_TRANSACTION,
            Route.RENAME_VIEW);
    for (Route route : Route.values()) {
      Optional<Operation> decided = operationOf(route, Map.of());
      if (decidedByBody.contains(route)) {
        assertThat(decided).as("%s", route).isEmpty();
      } else {
        assertThat(decided).as("%s", route).isPresent();
        assertThat(decided.get().routes()).as("%s", route).contains(route);
        assertThat(decided.get().kind()).isEqualTo(Operation.Kind.PERFORM);
      }
    }
  }

  @Test
  void theBodyDecidesCommitsRegistrationsAndReports() {
    MetadataUpdate property = new MetadataUpdate.SetProperties(Map.of("owner", "sales"));
    MetadataUpdate snapshots = new MetadataUpdate.RemoveSnapshots(Set.of(1L));
    assertThat(AccessPolicy.commit(false, List.of(property)))
        .isEqualTo(Operation.UPDATE_TABLE_PROPERTIES);
    assertThat(AccessPolicy.commit(false, List.of(property, snapshots)))
        .isEqualTo(Operation.UPDATE_TABLE_DATA);
    assertThat(AccessPolicy.commit(false, List.of(new MetadataUpdate.RemoveSnapshotRef("main"))))
        .isEqualTo(Operation.UPDATE_TABLE_DATA);
    assertThat(AccessPolicy.commit(true, List.of(snapshots)))
        .isEqualTo(Operation.COMPLETE_STAGED_CREATE);
    assertThat(AccessPolicy.register(false)).isEqualTo(Operation.REGISTER_TABLE);
    assertThat(AccessPolicy.register(true)).isEqualTo(Operation.REGISTER_TABLE_OVERWRITE);
    assertThat(AccessPolicy.report(ReportMetricsRequest.ReportType.SCAN_REPORT))
        .isEqualTo(Operation.REPORT_SCAN_METRICS);
    assertThat(AccessPolicy.report(ReportMetricsRequest.ReportType.COMMIT_REPORT))
        .isEqualTo(Operation.REPORT_COMMIT_METRICS);
    assertThat(AccessPolicy.sign(false)).isEqualTo(Operation.SIGN_READ_REQUEST);
    assertThat(AccessPolicy.sign(true)).isEqualTo(Operation.SIGN_WRITE_REQUEST);
  }

  @Test
  void vendedCredentialsWriteWithWriteAccessReadWithReadAccessAndNoneWithout() {
    assertThat(AccessPolicy.delegation(holding(Privilege.TABLE_WRITE_DATA), OBJECT))
        .isEqualTo(AccessLevel.WRITE);
    assertThat(AccessPolicy.delegation(holding(Privilege.TABLE_READ_DATA), OBJECT))
        .isEqualTo(AccessLevel.READ);
    assertThatThrownBy(
            () -> AccessPolicy.delegation(holding(Privilege.TABLE_READ_PROPERTIES), OBJECT))
        .isInstanceOf(ForbiddenException.class)
        .hasMessage("Principal 'alice' is not allowed to access the data of table sales.eu.orders");
  }

  @Test
  void tableResponsesOfCreateRegisterLoadAndCommitCarryCredentials() {
    assertThat(Arrays.stream(Route.values()).filter(AccessPolicy::carriesCredentials))
        .containsExactlyInAnyOrder(
            Route.CREATE_TABLE, Route.REGISTER_TABLE, Route.LOAD_TABLE, Route.UPDATE_TABLE);
  }

  @Test
  void aRefusalNamesWhatIsMissing() {
    CallerAccess reader = holding(Privilege.TABLE_READ_DATA);
    assertThatThrownBy(() -> AccessPolicy.authorize(Operation.RENAME_TABLE, reader, TARGETS))
        .hasMessage(
            "Principal 'alice' is not authorized: requires TABLE_DROP on table sales.eu.orders");
    assertThatThrownBy(() -> AccessPolicy.authorize(Operation.LIST_GRANTS, reader, TARGETS))
        .hasMessage(
            "Principal 'alice' is not authorized: requires SERVICE_MANAGE_ACCESS or"
                + " CATALOG_MANAGE_ACCESS on catalog");
  }

  private static Optional<Operation> operationOf(Route route, Map<String, String> query) {
    return AccessPolicy.ofRequest(new Request(route, Map.of(), query, Map.of(), null));
  }

  private static CallerAccess holding(Privilege privilege) {
    return new CallerAccess(
        Caller.withAllRoles("acme", "alice"),
        false,
        true,
        List.of(new Grant(privilege, Securable.catalog())));
  }

  /** No roles; a catalog role without grants; each grant alone; each pair; each also as admin. */
  private static List<CallerAccess> callers() {
    Caller alice = Caller.withAllRoles("acme", "alice");
    List<Grant> grants = new ArrayList<>();
    for (Privilege privilege : Privilege.values()) {
      for (Securable place : PLACES) {
        if (grantable(privilege, place)) {
          grants.add(new Grant(privilege, place));
        }
      }
    }
    List<List<Grant>> sets = new ArrayList<>();
    sets.add(List.of());
    grants.forEach(grant -> sets.add(List.of(grant)));
    for (int i = 0; i < grants.size(); i++) {
      for (int j = i + 1; j < grants.size(); j++) {
        if (grants.get(i).privilege().name().startsWith("TABLE_")
            || grants.get(i).privilege().name().startsWith("VIEW_")) {
          sets.add(List.of(grants.get(i), grants.get(j)));
        }
      }
    }
    List<CallerAccess> callers = new ArrayList<>();
    callers.add(new CallerAccess(alice, false, false, List.of()));
    for (List<Grant> set : sets) {
      callers.add(new CallerAccess(alice, false, true, set));
      callers.add(new CallerAccess(alice, true, true, set));
    }
    return callers;
  }

  /** Where the management API lets a privilege be granted. */
  private static boolean grantable(Privilege privilege, Securable place) {
    return switch (privilege.level()) {
      case SERVICE -> false;
      case CATALOG -> place.kind() == Securable.Kind.CATALOG;
      case NAMESPACE -> place.kind() != Securable.Kind.TABLE && place.kind() != Securable.Kind.VIEW;
      case TABLE -> place.kind() != Securable.Kind.VIEW;
      case VIEW -> place.kind() != Securable.Kind.TABLE;
    };
  }

  /** The specification's answer, computed from its text and the privilege model alone. */
  private static boolean allowedBySpecification(String needs, CallerAccess caller) {
    if (needs.contains(" | ")) {
      return Arrays.stream(needs.split(" \\| "))
          .anyMatch(alternative -> allowedBySpecification(alternative, caller));
    }
    if (needs.contains(" + ")) {
      return Arrays.stream(needs.split(" \\+ "))
          .allMatch(part -> allowedBySpecification(part, caller));
    }
    return switch (needs) {
      case "anyone" -> true;
      case "service admin" -> caller.serviceAdmin();
      case "catalog role" -> caller.hasCatalogRole();
      default -> {
        if (needs.startsWith("sees ")) {
          Securable target = Rule.On.valueOf(needs.substring(5)).of(TARGETS);
          yield caller.grants().stream()
              .anyMatch(g -> reaches(g.securable(), target) || reaches(target, g.securable()));
        }
        String[] words = needs.split(" on ");
        Privilege privilege = Privilege.valueOf(words[0]);
        Securable target = Rule.On.valueOf(words[1]).of(TARGETS);
        yield caller.grants().stream()
            .anyMatch(g -> privilege.isGrantedBy(g.privilege()) && reaches(g.securable(), target));
      }
    };
  }

  /** A grant on the catalog or a namespace reaches everything below it; one on an object, it. */
  private static boolean reaches(Securable held, Securable target) {
    return switch (held.kind()) {
      case CATALOG -> true;
      case NAMESPACE -> {
        String[] outer = held.namespace().levels();
        String[] inner = target.namespace().levels();
        yield outer.length <= inner.length
            && Arrays.equals(outer, 0, outer.length, inner, 0, outer.length);
      }
      case TABLE, VIEW -> held.equals(target);
    };
  }
}
