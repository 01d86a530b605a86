package dev.puddle.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.access.Role;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.CatalogRoles;
import dev.puddle.core.metastore.access.PrincipalRoles;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.metastore.access.PrivilegeGrants;
import java.util.Set;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;

/**
 * The management API under {@code /admin/v1}: warehouses (their properties updated with the body of
 * Iceberg's namespace properties update), principals (with their credentials), principal roles,
 * catalog roles and grants of a realm, the caller's. What each route needs is {@link
 * dev.puddle.core.access.Operation}'s to say, and was checked before it gets here; a warehouse of
 * another realm is as unknown as a missing one.
 */
final class ManagementEndpoints {
  private final Warehouses warehouses;
  private final Principals principals;
  private final PrincipalRoles principalRoles;
  private final CatalogRoles catalogRoles;
  private final PrivilegeGrants grants;

  ManagementEndpoints(Database database, Warehouses warehouses) {
    this.warehouses = warehouses;
    this.principals = new Principals(database);
    this.principalRoles = new PrincipalRoles(database);
    this.catalogRoles = new CatalogRoles(database);
    this.grants = new PrivilegeGrants(database);
  }

  /** Serves a management request of {@code scope}, whose warehouse is the path's, if any. */
  Response handle(Scope scope) {
    Request request = scope.request();
    String realm = scope.caller().realm();
    return switch (request.route()) {
      case LIST_WAREHOUSES -> {
        yield ManagementJson.list(
            "warehouses", warehouses.list(realm).stream().map(ManagementJson::json).toList());
      }
      case CREATE_WAREHOUSE -> {
        JsonNode body = ManagementJson.body(request.body());
        Warehouse created =
            warehouses.create(
                realm,
                ManagementJson.text(body, "name"),
                ManagementJson.text(body, "location"),
                ManagementJson.properties(body, "properties"),
                scope.change());
        yield Response.json(201, ManagementJson.json(created).toString());
      }
      case GET_WAREHOUSE -> {
        yield Response.json(200, ManagementJson.json(scope.warehouse()).toString());
      }
      case UPDATE_WAREHOUSE_PROPERTIES -> {
        UpdateNamespacePropertiesRequest update =
            RestJson.read(request.body(), UpdateNamespacePropertiesRequest.class);
        update.validate();
        Namespaces.PropertiesUpdate result =
            warehouses.updateProperties(
                realm,
                parameter(request, "warehouse"),
                update.updates(),
                Set.copyOf(update.removals()),
                scope.change());
        yield Response.json(
            200,
            RestJson.write(
                UpdateNamespacePropertiesResponse.builder()
                    .addUpdated(result.updated())
                    .addRemoved(result.removed())
                    .addMissing(result.missing())
                    .build()));
      }
      case DELETE_WAREHOUSE -> {
        warehouses.delete(realm, parameter(request, "warehouse"), scope.change());
        yield Response.noContent();
      }
      case LIST_PRINCIPALS -> {
        yield ManagementJson.list(
            "principals", principals.list(realm).stream().map(ManagementJson::json).toList());
      }
      case CREATE_PRINCIPAL -> {
        JsonNode principal =
            ManagementJson.object(ManagementJson.body(request.body()), "principal");
        String name = ManagementJson.text(principal, "name");
        PrincipalCredential credential =
            principals
                .as(scope.change())
                .create(realm, name, ManagementJson.properties(principal, "properties"));
        yield ManagementJson.withCredentials(201, principals.get(realm, name), credential);
      }
      case GET_PRINCIPAL -> {
        yield Response.json(
            200,
            ManagementJson.json(principals.get(realm, parameter(request, "principal"))).toString());
      }
      case DELETE_PRINCIPAL -> {
        principals.as(scope.change()).delete(realm, parameter(request, "principal"));
        yield Response.noContent();
      }
      case ROTATE_CREDENTIALS -> {
        String name = parameter(request, "principal");
        PrincipalCredential credential = principals.as(scope.change()).rotate(realm, name);
        yield ManagementJson.withCredentials(200, principals.get(realm, name), credential);
      }
      case ASSIGN_PRINCIPAL_ROLE -> {
        JsonNode role = ManagementJson.object(ManagementJson.body(request.body()), "principalRole");
        principalRoles
            .as(scope.change())
            .assign(realm, parameter(request, "principal"), ManagementJson.text(role, "name"));
        yield Response.noContent();
      }
      case REVOKE_PRINCIPAL_ROLE -> {
        principalRoles
            .as(scope.change())
            .revoke(realm, parameter(request, "principal"), parameter(request, "principalRole"));
        yield Response.noContent();
      }
      case LIST_PRINCIPAL_ROLES -> {
        yield ManagementJson.list(
            "roles", principalRoles.list(realm).stream().map(ManagementJson::json).toList());
      }
      case CREATE_PRINCIPAL_ROLE -> {
        JsonNode role = ManagementJson.object(ManagementJson.body(request.body()), "principalRole");
        Role created =
            new Role(
                ManagementJson.text(role, "name"), ManagementJson.properties(role, "properties"));
        principalRoles.as(scope.change()).create(realm, created.name(), created.properties());
        yield Response.json(201, ManagementJson.json(created).toString());
      }
      case DELETE_PRINCIPAL_ROLE -> {
        principalRoles.as(scope.change()).delete(realm, parameter(request, "principalRole"));
        yield Response.noContent();
      }
      case ASSIGN_CATALOG_ROLE -> {
        Warehouse warehouse = scope.warehouse();
        JsonNode role = ManagementJson.object(ManagementJson.body(request.body()), "catalogRole");
        catalogRoles
            .as(scope.change())
            .assign(
                warehouse, parameter(request, "principalRole"), ManagementJson.text(role, "name"));
        yield Response.noContent();
      }
      case REVOKE_CATALOG_ROLE -> {
        Warehouse warehouse = scope.warehouse();
        catalogRoles
            .as(scope.change())
            .revoke(
                warehouse, parameter(request, "principalRole"), parameter(request, "catalogRole"));
        yield Response.noContent();
      }
      case LIST_CATALOG_ROLES -> {
        Warehouse warehouse = scope.warehouse();
        yield ManagementJson.list(
            "roles", catalogRoles.list(warehouse).stream().map(ManagementJson::json).toList());
      }
      case CREATE_CATALOG_ROLE -> {
        Warehouse warehouse = scope.warehouse();
        JsonNode role = ManagementJson.object(ManagementJson.body(request.body()), "catalogRole");
        Role created =
            new Role(
                ManagementJson.text(role, "name"), ManagementJson.properties(role, "properties"));
        catalogRoles.as(scope.change()).create(warehouse, created.name(), created.properties());
        yield Response.json(201, ManagementJson.json(created).toString());
      }
      case DELETE_CATALOG_ROLE -> {
        Warehouse warehouse = scope.warehouse();
        catalogRoles.as(scope.change()).delete(warehouse, parameter(request, "catalogRole"));
        yield Response.noContent();
      }
      case LIST_GRANTS -> {
        Warehouse warehouse = scope.warehouse();
        yield ManagementJson.list(
            "grants",
            grants.list(warehouse, parameter(request, "catalogRole")).stream()
                .map(ManagementJson::json)
                .toList());
      }
      case ADD_GRANT -> {
        Warehouse warehouse = scope.warehouse();
        grants
            .as(scope.change())
            .add(
                warehouse,
                parameter(request, "catalogRole"),
                ManagementJson.grant(ManagementJson.body(request.body())));
        yield Response.noContent();
      }
      case REVOKE_GRANT -> {
        Warehouse warehouse = scope.warehouse();
        grants
            .as(scope.change())
            .revoke(
                warehouse,
                parameter(request, "catalogRole"),
                ManagementJson.grant(ManagementJson.body(request.body())));
        yield Response.noContent();
      }
      default -> throw new IllegalStateException("Not a management route: " + request.route());
    };
  }

  private static String parameter(Request request, String name) {
    return request.pathParameter(name).orElseThrow();
  }
}
