package dev.puddle.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.Route;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code puddle grants list ROLE}, and {@code puddle grant}/{@code revoke}: privileges on
 * securables of the warehouse, given to a catalog role, written as a sentence.
 */
@Command(
    name = "grants",
    description = "The grants of a catalog role of the warehouse.",
    subcommands = {Grants.ListGrants.class})
final class Grants {
  private Grants() {}

  @Command(name = "list", description = "Lists a catalog role's grants.")
  static final class ListGrants extends CatalogCommand {
    @Parameters(paramLabel = "CATALOG_ROLE", description = "The catalog role.")
    String role;

    @Override
    void run() {
      JsonNode answer =
          client()
              .get(
                  CatalogClient.path(
                      Route.LIST_GRANTS,
                      CatalogClient.segment(client().warehouse()),
                      CatalogClient.segment(role)));
      if (printer().json()) {
        printer().json(answer);
        return;
      }
      printer()
          .table(
              List.of("PRIVILEGE", "ON"),
              Rows.of(
                  answer.get("grants"),
                  g -> List.of(Printer.text(g, "privilege"), Securable.of(g).toString())));
    }
  }

  /** A grant sentence: {@code PRIVILEGE on SECURABLE to|from catalog-role ROLE}. */
  private record Sentence(String privilege, Securable securable, String role) {
    static Sentence parse(CommandSpec spec, List<String> words, String preposition) {
      String expected =
          "Expected: PRIVILEGE on catalog|namespace NS|table NS.TABLE|view NS.VIEW "
              + preposition
              + " catalog-role ROLE";
      if (words.size() < 6 || !words.get(1).equals("on")) {
        throw new ParameterException(spec.commandLine(), expected);
      }
      String type = words.get(2).toLowerCase(Locale.ROOT);
      int rest = Securable.named(type) ? 4 : 3;
      if (words.size() != rest + 3
          || !words.get(rest).equals(preposition)
          || !words.get(rest + 1).equals("catalog-role")) {
        throw new ParameterException(spec.commandLine(), expected);
      }
      try {
        Securable securable = Securable.parse(type, rest == 4 ? words.get(3) : null);
        return new Sentence(words.get(0).toUpperCase(Locale.ROOT), securable, words.get(rest + 2));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
    }

    ObjectNode body() {
      ObjectNode body = CatalogClient.JSON.createObjectNode();
      body.set("grant", securable.grant(privilege));
      return body;
    }
  }

  @Command(
      name = "grant",
      description = {
        "Grants a privilege on a securable of the warehouse to a catalog role.",
        "  puddle grant TABLE_READ_DATA on namespace sales to catalog-role readers",
        "  puddle grant TABLE_WRITE_DATA on table sales.orders to catalog-role writers",
        "  puddle grant CATALOG_MANAGE_CONTENT on catalog to catalog-role admins",
        "Privileges: see docs/access-control.md."
      })
  static final class Grant extends CatalogCommand {
    @Parameters(
        arity = "6..7",
        hideParamSyntax = true,
        paramLabel = "PRIVILEGE on SECURABLE to catalog-role ROLE",
        description = "The sentence; see the examples above.")
    List<String> words;

    @Override
    void run() {
      Sentence sentence = Sentence.parse(spec, words, "to");
      client()
          .send(
              "PUT",
              CatalogClient.path(
                  Route.ADD_GRANT,
                  CatalogClient.segment(client().warehouse()),
                  CatalogClient.segment(sentence.role())),
              Map.of(),
              sentence.body());
      printer()
          .message(
              "Granted %s on %s to catalog role %s",
              sentence.privilege(), sentence.securable(), sentence.role());
    }
  }

  @Command(
      name = "revoke",
      description = {
        "Revokes a privilege on a securable of the warehouse from a catalog role.",
        "  puddle revoke TABLE_READ_DATA on namespace sales from catalog-role readers"
      })
  static final class Revoke extends CatalogCommand {
    @Parameters(
        arity = "6..7",
        hideParamSyntax = true,
        paramLabel = "PRIVILEGE on SECURABLE from catalog-role ROLE",
        description = "The sentence; see the examples above.")
    List<String> words;

    @Override
    void run() {
      Sentence sentence = Sentence.parse(spec, words, "from");
      client()
          .send(
              "POST",
              CatalogClient.path(
                  Route.REVOKE_GRANT,
                  CatalogClient.segment(client().warehouse()),
                  CatalogClient.segment(sentence.role())),
              Map.of(),
              sentence.body());
      printer()
          .message(
              "Revoked %s on %s from catalog role %s",
              sentence.privilege(), sentence.securable(), sentence.role());
    }
  }
}
