package dev.puddle.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.Route;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code puddle principal-roles}: list, create, delete. */
@Command(
    name = "principal-roles",
    description =
        "Principal roles: what principals are given; each carries catalog roles (needs"
            + " service_admin).",
    subcommands = {
      PrincipalRoles.ListRoles.class,
      PrincipalRoles.Create.class,
      PrincipalRoles.Delete.class
    })
final class PrincipalRoles {
  private PrincipalRoles() {}

  @Command(name = "list", description = "Lists the principal roles.")
  static final class ListRoles extends CatalogCommand {
    @Override
    void run() {
      printRoles(printer(), client().get(CatalogClient.path(Route.LIST_PRINCIPAL_ROLES)));
    }
  }

  @Command(name = "create", description = "Creates a principal role.")
  static final class Create extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The principal role.")
    String name;

    @Option(names = "--property", paramLabel = "KEY=VALUE", description = "A property; repeatable.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Override
    void run() {
      ObjectNode body = CatalogClient.JSON.createObjectNode();
      ObjectNode role = body.putObject("principalRole");
      role.put("name", name);
      Rows.putProperties(role, properties);
      JsonNode answer =
          client().send("POST", CatalogClient.path(Route.CREATE_PRINCIPAL_ROLE), Map.of(), body);
      if (printer().json()) {
        printer().json(answer);
        return;
      }
      printer().message("Created principal role %s", name);
    }
  }

  @Command(name = "delete", description = "Deletes a principal role.")
  static final class Delete extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The principal role.")
    String name;

    @Override
    void run() {
      client()
          .send(
              "DELETE",
              CatalogClient.path(Route.DELETE_PRINCIPAL_ROLE, CatalogClient.segment(name)),
              Map.of(),
              null);
      printer().message("Deleted principal role %s", name);
    }
  }

  /** A {@code {"roles":[…]}} answer. */
  static void printRoles(Printer printer, JsonNode answer) {
    if (printer.json()) {
      printer.json(answer);
      return;
    }
    printer.table(
        List.of("NAME", "PROPERTIES"),
        Rows.of(
            answer.get("roles"),
            r -> List.of(Printer.text(r, "name"), Printer.properties(r.get("properties")))));
  }
}
