package dev.puddle.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Protects the route table as the router uses it: route keys resolve to their routes, and a decoded
 * path binds its variables exactly as API Gateway binds them, one non-empty segment each.
 */
class RouteTest {

  @ParameterizedTest
  @EnumSource(Route.class)
  void everyRouteKeyResolvesToItsRoute(Route route) {
    assertThat(Route.forRouteKey(route.routeKey())).contains(route);
    assertThat(route.routeKey()).isEqualTo(route.method() + " " + route.path());
  }

  @Test
  void routeKeysAndOperationIdsAreUnique() {
    Set<String> keys =
        Arrays.stream(Route.values()).map(Route::routeKey).collect(Collectors.toSet());
    Set<String> ids =
        Arrays.stream(Route.values()).map(Route::operationId).collect(Collectors.toSet());

    assertThat(keys).hasSize(Route.values().length);
    assertThat(ids).hasSize(Route.values().length);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "$default",
        "ANY /{proxy+}",
        "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/snapshots",
        "get /v1/config",
        "GET  /v1/config",
        ""
      })
  void unknownRouteKeysResolveToNothing(String routeKey) {
    assertThat(Route.forRouteKey(routeKey)).isEmpty();
  }

  @Test
  void catalogEndpointsAreTheIcebergOnesAndExcludeConfigAndProbes() {
    assertThat(Route.GET_CONFIG.isCatalogEndpoint()).isFalse();
    assertThat(Route.HEALTH.isCatalogEndpoint()).isFalse();
    assertThat(Route.READY.isCatalogEndpoint()).isFalse();
    assertThat(Route.LIST_PURGE_JOBS.isCatalogEndpoint()).isFalse();
    assertThat(Route.GET_TOKEN.isCatalogEndpoint()).isFalse();
    assertThat(Route.GET_JWKS.isCatalogEndpoint()).isFalse();
    assertThat(Route.LOAD_TABLE.isCatalogEndpoint()).isTrue();
  }

  @Test
  void onlyTheProbesTheTokenEndpointAndItsKeysAreOpenWithoutAToken() {
    assertThat(
            Arrays.stream(Route.values()).filter(route -> !route.requiresAuthentication()).toList())
        .containsExactlyInAnyOrder(Route.HEALTH, Route.READY, Route.GET_TOKEN, Route.GET_JWKS);
  }

  @ParameterizedTest
  @EnumSource(Route.class)
  void everyTemplateMatchesItselfWithSampleValues(Route route) {
    String path = route.path().replaceAll("\\{([A-Za-z-]+)\\}", "$1-value");

    RouteMatch match = Route.match(route.method(), path).orElseThrow();

    assertThat(match.route()).isEqualTo(route);
    assertThat(match.pathParameters().values()).allMatch(value -> value.endsWith("-value"));
  }

  /**
   * API Gateway gives a request to the route that matches it most specifically, and says nothing of
   * how it breaks a tie between two routes with variables in different places: {@code GET
   * /admin/v1/{prefix}/purge-jobs} and {@code GET /admin/v1/principals/{principal}} both match
   * {@code /admin/v1/principals/purge-jobs}. So two routes of a method may share a path only when
   * one has a literal segment wherever the other has one, and more (then it is the more specific,
   * and {@link #everyTemplateMatchesItselfWithSampleValues} shows the router agrees).
   */
  @Test
  void noPathIsAmbiguousBetweenTwoRoutes() {
    List<String> ambiguous = new ArrayList<>();
    Route[] routes = Route.values();
    for (int i = 0; i < routes.length; i++) {
      for (int j = i + 1; j < routes.length; j++) {
        Route a = routes[i];
        Route b = routes[j];
        if (a.method().equals(b.method())
            && shareAPath(a.path(), b.path())
            && !moreSpecific(a.path(), b.path())
            && !moreSpecific(b.path(), a.path())) {
          ambiguous.add(a.routeKey() + " and " + b.routeKey());
        }
      }
    }

    assertThat(ambiguous).isEmpty();
  }

  @Test
  void theAmbiguityCheckSeesVariablesInDifferentPlaces() {
    assertThat(shareAPath("/a/{x}/c", "/a/b/{y}")).isTrue();
    assertThat(moreSpecific("/a/{x}/c", "/a/b/{y}")).isFalse();
    assertThat(moreSpecific("/a/b/{y}", "/a/{x}/c")).isFalse();
    assertThat(shareAPath("/a/b/{y}", "/a/{x}/{z}")).isTrue();
    assertThat(moreSpecific("/a/b/{y}", "/a/{x}/{z}")).isTrue();
    assertThat(shareAPath("/a/b/c", "/a/d/{z}")).isFalse();
    assertThat(shareAPath("/a/{x}", "/a/{x}/c")).isFalse();
  }

  /** Whether some concrete path matches both templates. */
  private static boolean shareAPath(String first, String second) {
    String[] a = first.substring(1).split("/");
    String[] b = second.substring(1).split("/");
    if (a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!isVariable(a[i]) && !isVariable(b[i]) && !a[i].equals(b[i])) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code first} has a literal wherever {@code second} has one, and somewhere more. */
  private static boolean moreSpecific(String first, String second) {
    String[] a = first.substring(1).split("/");
    String[] b = second.substring(1).split("/");
    boolean more = false;
    for (int i = 0; i < a.length; i++) {
      if (isVariable(a[i]) && !isVariable(b[i])) {
        return false;
      }
      more |= !isVariable(a[i]) && isVariable(b[i]);
    }
    return more;
  }

  private static boolean isVariable(String segment) {
    return segment.startsWith("{");
  }

  @Test
  void bindsDecodedVariables() {
    RouteMatch match =
        Route.match("GET", "/v1/wh/namespaces/sales\u001feu/tables/daily orders").orElseThrow();

    assertThat(match.route()).isEqualTo(Route.LOAD_TABLE);
    assertThat(match.pathParameters())
        .isEqualTo(Map.of("prefix", "wh", "namespace", "sales\u001feu", "table", "daily orders"));
  }

  @ParameterizedTest
  @CsvSource({
    "HEAD, /v1/wh/namespaces/sales, NAMESPACE_EXISTS",
    "DELETE, /v1/wh/namespaces/sales, DROP_NAMESPACE",
    "POST, /v1/wh/namespaces/sales/register, REGISTER_TABLE",
    "POST, /v1/wh/namespaces/sales/register-view, REGISTER_VIEW",
    "POST, /v1/wh/tables/rename, RENAME_TABLE",
    "POST, /v1/wh/views/rename, RENAME_VIEW",
    "POST, /v1/wh/transactions/commit, COMMIT_TRANSACTION",
    "POST, /v1/wh/namespaces/sales/tables/orders/metrics, REPORT_METRICS",
    "GET, /v1/config, GET_CONFIG",
    "GET, /healthz, HEALTH"
  })
  void methodAndPathSelectTheRoute(String method, String path, Route expected) {
    assertThat(Route.match(method, path).map(RouteMatch::route)).contains(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/v1//namespaces",
        "/v1/wh/namespaces/",
        "/v1/wh/namespaces//tables",
        "/v1/wh/namespaces/sales/tables/",
        "/v1/wh/namespaces/sales/tables//metrics"
      })
  void aVariableNeverMatchesAnEmptySegment(String path) {
    String method = path.endsWith("metrics") ? "POST" : "GET";

    assertThat(Route.match(method, path)).isEmpty();
  }

  /** API Gateway decodes %2F to '/', so such a name would shift every later segment. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "/v1/wh/namespaces/a/b/tables/orders",
        "/v1/wh/namespaces/sales/tables/orders/2024",
        "/v1/w/h/namespaces"
      })
  void aVariableNeverSpansASlash(String path) {
    assertThat(Route.match("GET", path)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "v1/config", "/", "/v1", "/v1/config/", "/healthz/x"})
  void pathsOutsideTheTableMatchNothing(String path) {
    assertThat(Route.match("GET", path)).isEmpty();
    assertThat(Route.pathExists(path)).isFalse();
  }

  @Test
  void aKnownPathWithAnotherMethodExistsButDoesNotMatch() {
    assertThat(Route.match("DELETE", "/v1/config")).isEmpty();
    assertThat(Route.pathExists("/v1/config")).isTrue();
    assertThat(Route.match("PUT", "/v1/wh/namespaces/sales/tables/orders")).isEmpty();
    assertThat(Route.pathExists("/v1/wh/namespaces/sales/tables/orders")).isTrue();
  }

  @Test
  void theAllowedMethodsOfAPathAreThoseOfEveryRouteOnIt() {
    assertThat(Route.allowedMethods("/v1/wh/namespaces/sales/tables/orders"))
        .containsExactly("DELETE", "GET", "HEAD", "POST");
    assertThat(Route.allowedMethods("/v1/wh/namespaces")).containsExactly("GET", "POST");
    assertThat(Route.allowedMethods("/v1/config")).containsExactly("GET");
    assertThat(Route.allowedMethods("/v1/nothing")).isEmpty();
  }
}
