package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.contract.Route;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.auth.Authenticator;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.rest.CatalogApi;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A principal of the twin's realm with a catalog role of one warehouse, whose privileges on the
 * catalog a test grants and revokes through the management API, as root.
 */
final class Grantee {
  private static final AtomicInteger NAMES = new AtomicInteger();

  private final CatalogApi root;
  private final String warehouse;
  private final String name;

  private Grantee(String warehouse) {
    this.root = TestTwin.rootApi(warehouse).build();
    this.warehouse = warehouse;
    this.name = "grantee-" + NAMES.incrementAndGet();
  }

  /** A new principal whose catalog role in {@code warehouse} holds {@code privileges}. */
  static Grantee in(String warehouse, Privilege... privileges) {
    Grantee grantee = new Grantee(warehouse);
    String role = "{\"%s\":{\"name\":\"" + grantee.name + "\"}}";
    grantee.admin(Route.CREATE_PRINCIPAL, Map.of(), String.format(role, "principal"), 201);
    grantee.admin(Route.CREATE_PRINCIPAL_ROLE, Map.of(), String.format(role, "principalRole"), 201);
    grantee.admin(
        Route.ASSIGN_PRINCIPAL_ROLE,
        Map.of("principal", grantee.name),
        String.format(role, "principalRole"),
        204);
    grantee.admin(
        Route.CREATE_CATALOG_ROLE,
        Map.of("warehouse", warehouse),
        String.format(role, "catalogRole"),
        201);
    grantee.admin(
        Route.ASSIGN_CATALOG_ROLE,
        Map.of("principalRole", grantee.name, "warehouse", warehouse),
        String.format(role, "catalogRole"),
        204);
    grantee.grant(privileges);
    return grantee;
  }

  /** Who requests come from: this principal, with all its roles. */
  Authenticator authenticator() {
    return request -> Caller.withAllRoles(LocalTwin.REALM, name);
  }

  void grant(Privilege... privileges) {
    for (Privilege privilege : privileges) {
      admin(Route.ADD_GRANT, grantPath(), grant(privilege), 204);
    }
  }

  /** Grants {@code privilege} on one namespace (a single level) only. */
  void grantOn(String namespace, Privilege privilege) {
    admin(
        Route.ADD_GRANT,
        grantPath(),
        "{\"grant\":{\"type\":\"namespace\",\"namespace\":[\""
            + namespace
            + "\"],\"privilege\":\""
            + privilege
            + "\"}}",
        204);
  }

  void revoke(Privilege... privileges) {
    for (Privilege privilege : privileges) {
      admin(Route.REVOKE_GRANT, grantPath(), grant(privilege), 204);
    }
  }

  private Map<String, String> grantPath() {
    return Map.of("warehouse", warehouse, "catalogRole", name);
  }

  private static String grant(Privilege privilege) {
    return "{\"grant\":{\"type\":\"catalog\",\"privilege\":\"" + privilege + "\"}}";
  }

  private void admin(Route route, Map<String, String> path, String body, int status) {
    Response response = root.handle(new Request(route, path, Map.of(), Map.of(), body));
    assertThat(response.status()).as("%s: %s", route, response.body()).isEqualTo(status);
  }
}
