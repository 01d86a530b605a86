package dev.puddle.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.Route;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code puddle assign} and {@code unassign}: a principal role to a principal, a catalog role (of
 * the warehouse) to a principal role, written as a sentence.
 */
final class Assignments {
  private Assignments() {}

  /** What is assigned to what, as the words of the command line say it. */
  private record Assignment(boolean catalogRole, String role, String grantee) {
    static Assignment parse(CommandSpec spec, List<String> words, String preposition) {
      if (words.size() != 5 || !words.get(2).equals(preposition)) {
        throw usage(
            spec,
            "Expected: principal-role ROLE %s principal NAME, or catalog-role ROLE %s"
                + " principal-role ROLE",
            preposition,
            preposition);
      }
      String kind = words.get(0) + " " + words.get(3);
      return switch (kind) {
        case "principal-role principal" -> new Assignment(false, words.get(1), words.get(4));
        case "catalog-role principal-role" -> new Assignment(true, words.get(1), words.get(4));
        default ->
            throw usage(
                spec,
                "Cannot assign a %s to a %s: a principal-role goes to a principal, a catalog-role"
                    + " to a principal-role",
                words.get(0),
                words.get(3));
      };
    }
  }

  private static ParameterException usage(CommandSpec spec, String format, Object... args) {
    return new ParameterException(spec.commandLine(), String.format(format, args));
  }

  @Command(
      name = "assign",
      description = {
        "Gives a principal a principal role, or a principal role a catalog role of the warehouse.",
        "  puddle assign principal-role bi_readers to principal trino",
        "  puddle assign catalog-role sales_reader to principal-role bi_readers"
      })
  static final class Assign extends CatalogCommand {
    @Parameters(
        arity = "5",
        hideParamSyntax = true,
        paramLabel =
            "principal-role ROLE to principal NAME | catalog-role ROLE to principal-role ROLE",
        description = "The sentence; see the examples above.")
    List<String> words;

    @Override
    void run() {
      Assignment assignment = Assignment.parse(spec, words, "to");
      if (assignment.catalogRole()) {
        ObjectNode body = CatalogClient.JSON.createObjectNode();
        body.putObject("catalogRole").put("name", assignment.role());
        client()
            .send(
                "PUT",
                CatalogClient.path(
                    Route.ASSIGN_CATALOG_ROLE,
                    CatalogClient.segment(assignment.grantee()),
                    CatalogClient.segment(client().warehouse())),
                Map.of(),
                body);
        printer()
            .message(
                "Assigned catalog role %s of warehouse %s to principal role %s",
                assignment.role(), client().warehouse(), assignment.grantee());
      } else {
        ObjectNode body = CatalogClient.JSON.createObjectNode();
        body.putObject("principalRole").put("name", assignment.role());
        client()
            .send(
                "PUT",
                CatalogClient.path(
                    Route.ASSIGN_PRINCIPAL_ROLE, CatalogClient.segment(assignment.grantee())),
                Map.of(),
                body);
        printer()
            .message(
                "Assigned principal role %s to principal %s",
                assignment.role(), assignment.grantee());
      }
    }
  }

  @Command(
      name = "unassign",
      description = {
        "Takes a principal role from a principal, or a catalog role from a principal role.",
        "  puddle unassign principal-role bi_readers from principal trino",
        "  puddle unassign catalog-role sales_reader from principal-role bi_readers"
      })
  static final class Unassign extends CatalogCommand {
    @Parameters(
        arity = "5",
        hideParamSyntax = true,
        paramLabel =
            "principal-role ROLE from principal NAME | catalog-role ROLE from principal-role ROLE",
        description = "The sentence; see the examples above.")
    List<String> words;

    @Override
    void run() {
      Assignment assignment = Assignment.parse(spec, words, "from");
      if (assignment.catalogRole()) {
        client()
            .send(
                "DELETE",
                CatalogClient.path(
                    Route.REVOKE_CATALOG_ROLE,
                    CatalogClient.segment(assignment.grantee()),
                    CatalogClient.segment(client().warehouse()),
                    CatalogClient.segment(assignment.role())),
                Map.of(),
                null);
        printer()
            .message(
                "Unassigned catalog role %s of warehouse %s from principal role %s",
                assignment.role(), client().warehouse(), assignment.grantee());
      } else {
        client()
            .send(
                "DELETE",
                CatalogClient.path(
                    Route.REVOKE_PRINCIPAL_ROLE,
                    CatalogClient.segment(assignment.grantee()),
                    CatalogClient.segment(assignment.role())),
                Map.of(),
                null);
        printer()
            .message(
                "Unassigned principal role %s from principal %s",
                assignment.role(), assignment.grantee());
      }
    }
  }
}
