package dev.puddle.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.Route;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code puddle principals}: list, show, create, rotate, delete. */
@Command(
    name = "principals",
    description =
        "Principals: who calls the catalog, each with one credential (needs service_admin).",
    subcommands = {
      Principals.ListPrincipals.class,
      Principals.Show.class,
      Principals.Create.class,
      Principals.Rotate.class,
      Principals.Delete.class
    })
final class Principals {
  private Principals() {}

  @Command(name = "list", description = "Lists the principals.")
  static final class ListPrincipals extends CatalogCommand {
    @Override
    void run() {
      JsonNode answer = client().get(CatalogClient.path(Route.LIST_PRINCIPALS));
      if (printer().json()) {
        printer().json(answer);
        return;
      }
      printer()
          .table(
              List.of("NAME", "CLIENT_ID", "PROPERTIES"),
              Rows.of(
                  answer.get("principals"),
                  p ->
                      List.of(
                          Printer.text(p, "name"),
                          Printer.text(p, "clientId"),
                          Printer.properties(p.get("properties")))));
    }
  }

  @Command(name = "show", description = "Shows a principal (never its secret).")
  static final class Show extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The principal.")
    String name;

    @Override
    void run() {
      JsonNode answer =
          client().get(CatalogClient.path(Route.GET_PRINCIPAL, CatalogClient.segment(name)));
      if (printer().json()) {
        printer().json(answer);
        return;
      }
      Map<String, String> fields = new LinkedHashMap<>();
      fields.put("name", Printer.text(answer, "name"));
      fields.put("client id", Printer.text(answer, "clientId"));
      Rows.properties(answer.get("properties"), fields);
      printer().fields(fields);
    }
  }

  @Command(
      name = "create",
      description = "Creates a principal and prints its credential: the only time it is shown.")
  static final class Create extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The principal.")
    String name;

    @Option(names = "--property", paramLabel = "KEY=VALUE", description = "A property; repeatable.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(
        names = "--principal-role",
        paramLabel = "ROLE",
        description = "A principal role to assign it right away; repeatable.")
    List<String> roles = new ArrayList<>();

    @Override
    void run() {
      ObjectNode body = CatalogClient.JSON.createObjectNode();
      ObjectNode principal = body.putObject("principal");
      principal.put("name", name);
      Rows.putProperties(principal, properties);
      JsonNode answer =
          client().send("POST", CatalogClient.path(Route.CREATE_PRINCIPAL), Map.of(), body);
      // the secret first: should an assignment fail, the principal exists and needs it
      printCredential(printer(), "Created principal " + name, answer);
      for (String role : roles) {
        ObjectNode assignment = CatalogClient.JSON.createObjectNode();
        assignment.putObject("principalRole").put("name", role);
        client()
            .send(
                "PUT",
                CatalogClient.path(Route.ASSIGN_PRINCIPAL_ROLE, CatalogClient.segment(name)),
                Map.of(),
                assignment);
        printer().message("Assigned principal role %s to principal %s", role, name);
      }
    }
  }

  @Command(
      name = "rotate",
      description =
          "Gives a principal a new secret and prints it, once; the old secret stops working.")
  static final class Rotate extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The principal.")
    String name;

    @Override
    void run() {
      JsonNode answer =
          client()
              .send(
                  "POST",
                  CatalogClient.path(Route.ROTATE_CREDENTIALS, CatalogClient.segment(name)),
                  Map.of(),
                  null);
      printCredential(printer(), "Rotated the secret of principal " + name, answer);
    }
  }

  @Command(name = "delete", description = "Deletes a principal; its credential stops working.")
  static final class Delete extends CatalogCommand {
    @Parameters(paramLabel = "NAME", description = "The principal.")
    String name;

    @Override
    void run() {
      client()
          .send(
              "DELETE",
              CatalogClient.path(Route.DELETE_PRINCIPAL, CatalogClient.segment(name)),
              Map.of(),
              null);
      printer().message("Deleted principal %s", name);
    }
  }

  /** A create or rotate answer: the credential, which the catalog shows this once only. */
  private static void printCredential(Printer printer, String what, JsonNode answer) {
    if (printer.json()) {
      printer.json(answer);
      return;
    }
    JsonNode credentials = answer.get("credentials");
    String clientId = Printer.text(credentials, "clientId");
    printer.message("%s. Its credential is shown only now: keep it safe.", what);
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("client id", clientId);
    fields.put("client secret", Printer.text(credentials, "clientSecret"));
    fields.put("credential", clientId + ":" + Printer.text(credentials, "clientSecret"));
    printer.fields(fields);
  }
}
