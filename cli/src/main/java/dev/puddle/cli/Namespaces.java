package dev.puddle.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code puddle namespaces}: list and show, through the Iceberg REST API. */
@Command(
    name = "namespaces",
    description = "The warehouse's namespaces, read through the Iceberg REST API.",
    subcommands = {Namespaces.ListNamespaces.class, Namespaces.Show.class})
final class Namespaces {
  private Namespaces() {}

  @Command(name = "list", description = "Lists the namespaces at the top, or below PARENT.")
  static final class ListNamespaces extends CatalogCommand {
    @Parameters(
        paramLabel = "PARENT",
        arity = "0..1",
        description = "A namespace, levels separated by dots: sales.eu.")
    String parent;

    @Override
    void run() {
      Namespace under = parent == null ? Namespace.empty() : Arguments.namespace(spec, parent);
      List<Namespace> namespaces = new IcebergCatalog(client()).namespaces(under);
      if (printer().json()) {
        printer()
            .json(
                CatalogClient.JSON.valueToTree(
                    ListNamespacesResponse.builder().addAll(namespaces).build()));
        return;
      }
      printer()
          .table(
              List.of("NAMESPACE"),
              namespaces.stream().map(n -> List.of(Printer.text(n.toString()))).toList());
    }
  }

  @Command(name = "show", description = "Shows a namespace's properties.")
  static final class Show extends CatalogCommand {
    @Parameters(paramLabel = "NAMESPACE", description = "Levels separated by dots: sales.eu.")
    String name;

    @Override
    void run() {
      GetNamespaceResponse namespace =
          new IcebergCatalog(client()).namespace(Arguments.namespace(spec, name));
      if (printer().json()) {
        JsonNode json = CatalogClient.JSON.valueToTree(namespace);
        printer().json(json);
        return;
      }
      Map<String, String> fields = new LinkedHashMap<>();
      fields.put("namespace", namespace.namespace().toString());
      namespace.properties().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> fields.put("property." + e.getKey(), e.getValue()));
      printer().fields(fields);
    }
  }
}
