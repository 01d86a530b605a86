package dev.puddle.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.Route;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code puddle catalog-roles}: a warehouse's catalog roles; list, create, delete. */
@Command(
    name = "catalog-roles",
    description =
        "Catalog roles of the warehouse (--warehouse): what grants are given to (needs"
            + " service_admin or CATALOG_MANAGE_ACCESS).",
    subcommands = {
      CatalogRoles.ListRoles.class,
      CatalogRoles.Create.class,
      CatalogRoles.Delete.class
    })
final class CatalogRoles {
  private CatalogRoles() {}

  @Command(name = "list", description = "Lists the warehouse's catalog roles.")
  static final class ListRoles extends CatalogCommand {
    @Override
    void run() {
      String warehouse = CatalogClient.segment(client().warehouse());
      PrincipalRoles.printRoles(
          printer(), client().get(CatalogClient.path(Route.LIST_CATALOG_ROLES, warehouse)));
    }
  }

  @Command(name = "create", description = "Creates a catalog role in the warehouse.")
  static final class Create extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The catalog role.")
    String name;

    @Option(names = "--property", paramLabel = "KEY=VALUE", description = "A property; repeatable.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Override
    void run() {
      ObjectNode body = CatalogClient.JSON.createObjectNode();
      ObjectNode role = body.putObject("catalogRole");
      role.put("name", name);
      Rows.putProperties(role, properties);
      String warehouse = CatalogClient.segment(client().warehouse());
      JsonNode answer =
          client()
              .send(
                  "POST", CatalogClient.path(Route.CREATE_CATALOG_ROLE, warehouse), Map.of(), body);
      if (printer().json()) {
        printer().json(answer);
        return;
      }
      printer().message("Created catalog role %s in warehouse %s", name, client().warehouse());
    }
  }

  @Command(name = "delete", description = "Deletes a catalog role, with its grants.")
  static final class Delete extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The catalog role.")
    String name;

    @Override
    void run() {
      String warehouse = CatalogClient.segment(client().warehouse());
      client()
          .send(
              "DELETE",
              CatalogClient.path(Route.DELETE_CATALOG_ROLE, warehouse, CatalogClient.segment(name)),
              Map.of(),
              null);
      printer().message("Deleted catalog role %s of warehouse %s", name, client().warehouse());
    }
  }
}
