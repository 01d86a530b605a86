package dev.puddle.core.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.contract.Route;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.rest.Endpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract module spells the Iceberg REST methods and paths out, as it depends on nothing; this
 * holds every Iceberg route of the table to iceberg-core's {@link Endpoint} of the same operation,
 * so that the copy cannot drift from the specification Puddle serves.
 */
class IcebergEndpointsTest {
  private static final Map<Route, Endpoint> ENDPOINTS = new EnumMap<>(Route.class);

  static {
    ENDPOINTS.put(Route.LIST_NAMESPACES, Endpoint.V1_LIST_NAMESPACES);
    ENDPOINTS.put(Route.CREATE_NAMESPACE, Endpoint.V1_CREATE_NAMESPACE);
    ENDPOINTS.put(Route.LOAD_NAMESPACE, Endpoint.V1_LOAD_NAMESPACE);
    ENDPOINTS.put(Route.NAMESPACE_EXISTS, Endpoint.V1_NAMESPACE_EXISTS);
    ENDPOINTS.put(Route.DROP_NAMESPACE, Endpoint.V1_DELETE_NAMESPACE);
    ENDPOINTS.put(Route.UPDATE_NAMESPACE_PROPERTIES, Endpoint.V1_UPDATE_NAMESPACE);
    ENDPOINTS.put(Route.LIST_TABLES, Endpoint.V1_LIST_TABLES);
    ENDPOINTS.put(Route.CREATE_TABLE, Endpoint.V1_CREATE_TABLE);
    ENDPOINTS.put(Route.REGISTER_TABLE, Endpoint.V1_REGISTER_TABLE);
    ENDPOINTS.put(Route.LOAD_TABLE, Endpoint.V1_LOAD_TABLE);
    ENDPOINTS.put(Route.TABLE_EXISTS, Endpoint.V1_TABLE_EXISTS);
    ENDPOINTS.put(Route.LOAD_CREDENTIALS, Endpoint.V1_TABLE_CREDENTIALS);
    ENDPOINTS.put(Route.SIGN_REQUEST, Endpoint.V1_TABLE_REMOTE_SIGN);
    ENDPOINTS.put(Route.PLAN_TABLE_SCAN, Endpoint.V1_SUBMIT_TABLE_SCAN_PLAN);
    ENDPOINTS.put(Route.FETCH_PLANNING_RESULT, Endpoint.V1_FETCH_TABLE_SCAN_PLAN);
    ENDPOINTS.put(Route.CANCEL_PLANNING, Endpoint.V1_CANCEL_TABLE_SCAN_PLAN);
    ENDPOINTS.put(Route.FETCH_SCAN_TASKS, Endpoint.V1_FETCH_TABLE_SCAN_PLAN_TASKS);
    ENDPOINTS.put(Route.UPDATE_TABLE, Endpoint.V1_UPDATE_TABLE);
    ENDPOINTS.put(Route.DROP_TABLE, Endpoint.V1_DELETE_TABLE);
    ENDPOINTS.put(Route.RENAME_TABLE, Endpoint.V1_RENAME_TABLE);
    ENDPOINTS.put(Route.REPORT_METRICS, Endpoint.V1_REPORT_METRICS);
    ENDPOINTS.put(Route.COMMIT_TRANSACTION, Endpoint.V1_COMMIT_TRANSACTION);
    ENDPOINTS.put(Route.LIST_VIEWS, Endpoint.V1_LIST_VIEWS);
    ENDPOINTS.put(Route.CREATE_VIEW, Endpoint.V1_CREATE_VIEW);
    ENDPOINTS.put(Route.REGISTER_VIEW, Endpoint.V1_REGISTER_VIEW);
    ENDPOINTS.put(Route.LOAD_VIEW, Endpoint.V1_LOAD_VIEW);
    ENDPOINTS.put(Route.VIEW_EXISTS, Endpoint.V1_VIEW_EXISTS);
    ENDPOINTS.put(Route.REPLACE_VIEW, Endpoint.V1_UPDATE_VIEW);
    ENDPOINTS.put(Route.DROP_VIEW, Endpoint.V1_DELETE_VIEW);
    ENDPOINTS.put(Route.RENAME_VIEW, Endpoint.V1_RENAME_VIEW);
  }

  /**
   * Routes of REST specification proposals that iceberg-core does not ship yet, with the method and
   * path the proposal gives them.
   */
  private static final Map<Route, String> PROPOSED =
      Map.of(Route.QUERY_EVENTS, "POST /v1/{prefix}/events");

  static Stream<Route> icebergRoutes() {
    return ENDPOINTS.keySet().stream();
  }

  @ParameterizedTest
  @MethodSource("icebergRoutes")
  void everyIcebergRouteIsIcebergCoresEndpointOfTheSameOperation(Route route) {
    Endpoint endpoint = ENDPOINTS.get(route);
    assertThat(route.method()).isEqualTo(endpoint.httpMethod());
    assertThat(route.path()).isEqualTo(endpoint.path());
    assertThat(Endpoint.create(route.method(), route.path())).isEqualTo(endpoint);
  }

  @Test
  void everyProposedRouteIsWhereItsProposalPutsIt() {
    PROPOSED.forEach((route, key) -> assertThat(route.routeKey()).isEqualTo(key));
  }

  /** A new catalog route must name its endpoint above, or the check would pass it by. */
  @Test
  void everyCatalogEndpointIsChecked() {
    List<Route> checked = new ArrayList<>(ENDPOINTS.keySet());
    checked.addAll(PROPOSED.keySet());
    assertThat(checked)
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(Route.values()).filter(Route::isCatalogEndpoint).toList());
  }
}
