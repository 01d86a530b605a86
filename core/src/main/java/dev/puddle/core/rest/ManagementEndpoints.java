package dev.puddle.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.puddle.core.access.AccessQuery;
import dev.puddle.core.access.CallerAccess;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.access.Role;
import dev.puddle.core.access.Securable;
import dev.puddle.core.api.Privilege;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.CatalogRoles;
import dev.puddle.core.metastore.access.PrincipalRoles;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.metastore.access.PrivilegeGrants;

/**
 * The management API under {@code /admin/v1}: warehouses, principals (with their credentials),
 * principal roles, catalog roles and grants of a realm, the caller's. Realm-wide changes need
 * {@code SERVICE_MANAGE_ACCESS} (the {@code service_admin} principal role); a warehouse's catalog
 * roles and grants need that or {@code CATALOG_MANAGE_ACCESS} on the warehouse. A warehouse of
 * another realm is as unknown as a missing one.
 */
final class ManagementEndpoints {
  private final Warehouses warehouses;
  private final AccessQuery access;
  private final Principals principals;
  private final PrincipalRoles principalRoles;
  private final CatalogRoles catalogRoles;
  private final PrivilegeGrants grants;

  ManagementEndpoints(Database database, Warehouses warehouses, AccessQuery access) {
    this.warehouses = warehouses;
    this.access = access;
    this.principals = new Principals(database);
    this.principalRoles = new PrincipalRoles(database);
    this.catalogRoles = new CatalogRoles(database);
    this.grants = new PrivilegeGrants(database);
  }

  Response handle(Request request, Caller caller) {
    String realm = caller.realm();
    return switch (request.route()) {
      case LIST_WAREHOUSES -> {
        serviceAdmin(caller);
        yield ManagementJson.list(
            "warehouses", warehouses.list(realm).stream().map(ManagementJson::json).toList());
      }
      case CREATE_WAREHOUSE -> {
        serviceAdmin(caller);
        JsonNode body = ManagementJson.body(request.body());
        Warehouse created =
            warehouses.create(
                realm,
                ManagementJson.text(body, "name"),
                ManagementJson.text(body, "location"),
                ManagementJson.properties(body, "properties"));
        yield Response.json(201, ManagementJson.json(created).toString());
      }
      case GET_WAREHOUSE -> {
        Warehouse warehouse = warehouse(request, caller);
        CallerAccess callerAccess = access.load(caller, warehouse.id());
        if (!callerAccess.serviceAdmin()) {
          callerAccess.require(Privilege.CATALOG_READ_PROPERTIES, Securable.catalog());
        }
        yield Response.json(200, ManagementJson.json(warehouse).toString());
      }
      case DELETE_WAREHOUSE -> {
        serviceAdmin(caller);
        warehouses.delete(realm, parameter(request, "warehouse"));
        yield Response.noContent();
      }
      case LIST_PRINCIPALS -> {
        serviceAdmin(caller);
        yield ManagementJson.list(
            "principals", principals.list(realm).stream().map(ManagementJson::json).toList());
      }
      case CREATE_PRINCIPAL -> {
        serviceAdmin(caller);
        JsonNode principal =
            ManagementJson.object(ManagementJson.body(request.body()), "principal");
        String name = ManagementJson.text(principal, "name");
        PrincipalCredential credential =
            principals.create(realm, name, ManagementJson.properties(principal, "properties"));
        yield ManagementJson.withCredentials(201, principals.get(realm, name), credential);
      }
      case GET_PRINCIPAL -> {
        serviceAdmin(caller);
        yield Response.json(
            200,
            ManagementJson.json(principals.get(realm, parameter(request, "principal"))).toString());
      }
      case DELETE_PRINCIPAL -> {
        serviceAdmin(caller);
        principals.delete(realm, parameter(request, "principal"));
        yield Response.noContent();
      }
      case ROTATE_CREDENTIALS -> {
        serviceAdmin(caller);
        String name = parameter(request, "principal");
        PrincipalCredential credential = principals.rotate(realm, name);
        yield ManagementJson.withCredentials(200, principals.get(realm, name), credential);
      }
      case ASSIGN_PRINCIPAL_ROLE -> {
        serviceAdmin(caller);
        JsonNode role = ManagementJson.object(ManagementJson.body(request.body()), "principalRole");
        principalRoles.assign(
            realm, parameter(request, "principal"), ManagementJson.text(role, "name"));
        yield Response.noContent();
      }
      case REVOKE_PRINCIPAL_ROLE -> {
        serviceAdmin(caller);
        principalRoles.revoke(
            realm, parameter(request, "principal"), parameter(request, "principalRole"));
        yield Response.noContent();
      }
      case LIST_PRINCIPAL_ROLES -> {
        serviceAdmin(caller);
        yield ManagementJson.list(
            "roles", principalRoles.list(realm).stream().map(ManagementJson::json).toList());
      }
      case CREATE_PRINCIPAL_ROLE -> {
        serviceAdmin(caller);
        JsonNode role = ManagementJson.object(ManagementJson.body(request.body()), "principalRole");
        Role created =
            new Role(
                ManagementJson.text(role, "name"), ManagementJson.properties(role, "properties"));
        principalRoles.create(realm, created.name(), created.properties());
        yield Response.json(201, ManagementJson.json(created).toString());
      }
      case DELETE_PRINCIPAL_ROLE -> {
        serviceAdmin(caller);
        principalRoles.delete(realm, parameter(request, "principalRole"));
        yield Response.noContent();
      }
      case ASSIGN_CATALOG_ROLE -> {
        Warehouse warehouse = managedWarehouse(request, caller);
        JsonNode role = ManagementJson.object(ManagementJson.body(request.body()), "catalogRole");
        catalogRoles.assign(
            warehouse, parameter(request, "principalRole"), ManagementJson.text(role, "name"));
        yield Response.noContent();
      }
      case REVOKE_CATALOG_ROLE -> {
        Warehouse warehouse = managedWarehouse(request, caller);
        catalogRoles.revoke(
            warehouse, parameter(request, "principalRole"), parameter(request, "catalogRole"));
        yield Response.noContent();
      }
      case LIST_CATALOG_ROLES -> {
        Warehouse warehouse = managedWarehouse(request, caller);
        yield ManagementJson.list(
            "roles", catalogRoles.list(warehouse).stream().map(ManagementJson::json).toList());
      }
      case CREATE_CATALOG_ROLE -> {
        Warehouse warehouse = managedWarehouse(request, caller);
        JsonNode role = ManagementJson.object(ManagementJson.body(request.body()), "catalogRole");
        Role created =
            new Role(
                ManagementJson.text(role, "name"), ManagementJson.properties(role, "properties"));
        catalogRoles.create(warehouse, created.name(), created.properties());
        yield Response.json(201, ManagementJson.json(created).toString());
      }
      case DELETE_CATALOG_ROLE -> {
        Warehouse warehouse = managedWarehouse(request, caller);
        catalogRoles.delete(warehouse, parameter(request, "catalogRole"));
        yield Response.noContent();
      }
      case LIST_GRANTS -> {
        Warehouse warehouse = managedWarehouse(request, caller);
        yield ManagementJson.list(
            "grants",
            grants.list(warehouse, parameter(request, "catalogRole")).stream()
                .map(ManagementJson::json)
                .toList());
      }
      case ADD_GRANT -> {
        Warehouse warehouse = managedWarehouse(request, caller);
        grants.add(
            warehouse,
            parameter(request, "catalogRole"),
            ManagementJson.grant(ManagementJson.body(request.body())));
        yield Response.noContent();
      }
      case REVOKE_GRANT -> {
        Warehouse warehouse = managedWarehouse(request, caller);
        grants.revoke(
            warehouse,
            parameter(request, "catalogRole"),
            ManagementJson.grant(ManagementJson.body(request.body())));
        yield Response.noContent();
      }
      default -> throw new IllegalStateException("Not a management route: " + request.route());
    };
  }

  private void serviceAdmin(Caller caller) {
    access.load(caller, null).requireServiceAdmin();
  }

  private Warehouse warehouse(Request request, Caller caller) {
    return warehouses.get(caller.realm(), parameter(request, "warehouse"));
  }

  /** The path's warehouse, once the caller is found to manage access to it. */
  private Warehouse managedWarehouse(Request request, Caller caller) {
    Warehouse warehouse = warehouse(request, caller);
    access.load(caller, warehouse.id()).requireManageAccess();
    return warehouse;
  }

  private static String parameter(Request request, String name) {
    return request.pathParameter(name).orElseThrow();
  }
}
