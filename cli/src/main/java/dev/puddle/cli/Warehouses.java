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

/** {@code puddle warehouses}: list, show, create, delete. */
@Command(
    name = "warehouses",
    description = "Warehouses: a name for a location in S3 (needs service_admin).",
    subcommands = {
      Warehouses.ListWarehouses.class,
      Warehouses.Show.class,
      Warehouses.Create.class,
      Warehouses.Delete.class
    })
final class Warehouses {
  private Warehouses() {}

  @Command(name = "list", description = "Lists the warehouses.")
  static final class ListWarehouses extends CatalogCommand {
    @Override
    void run() {
      JsonNode answer = client().get(CatalogClient.path(Route.LIST_WAREHOUSES));
      if (printer().json()) {
        printer().json(answer);
        return;
      }
      printer()
          .table(
              List.of("NAME", "LOCATION", "PROPERTIES"),
              Rows.of(
                  answer.get("warehouses"),
                  w ->
                      List.of(
                          Printer.text(w, "name"),
                          Printer.text(w, "location"),
                          Printer.properties(w.get("properties")))));
    }
  }

  @Command(name = "show", description = "Shows a warehouse.")
  static final class Show extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The warehouse.")
    String name;

    @Override
    void run() {
      JsonNode answer =
          client().get(CatalogClient.path(Route.GET_WAREHOUSE, CatalogClient.segment(name)));
      if (printer().json()) {
        printer().json(answer);
        return;
      }
      Map<String, String> fields = new LinkedHashMap<>();
      fields.put("name", Printer.text(answer, "name"));
      fields.put("location", Printer.text(answer, "location"));
      Rows.properties(answer.get("properties"), fields);
      printer().fields(fields);
    }
  }

  @Command(name = "create", description = "Creates a warehouse, with its catalog_admin role.")
  static final class Create extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The warehouse.")
    String name;

    @Option(
        names = "--location",
        required = true,
        paramLabel = "S3_URI",
        description = "Where its tables go, e.g. s3://bucket/analytics.")
    String location;

    @Option(names = "--property", paramLabel = "KEY=VALUE", description = "A property; repeatable.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Override
    void run() {
      ObjectNode body = CatalogClient.JSON.createObjectNode();
      body.put("name", name);
      body.put("location", location);
      Rows.putProperties(body, properties);
      JsonNode answer =
          client().send("POST", CatalogClient.path(Route.CREATE_WAREHOUSE), Map.of(), body);
      if (printer().json()) {
        printer().json(answer);
        return;
      }
      printer().message("Created warehouse %s at %s", name, Printer.text(answer, "location"));
    }
  }

  @Command(
      name = "delete",
      description = "Deletes an empty warehouse, with its catalog roles and grants.")
  static final class Delete extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The warehouse.")
    String name;

    @Override
    void run() {
      client()
          .send(
              "DELETE",
              CatalogClient.path(Route.DELETE_WAREHOUSE, CatalogClient.segment(name)),
              Map.of(),
              null);
      printer().message("Deleted warehouse %s", name);
    }
  }
}
