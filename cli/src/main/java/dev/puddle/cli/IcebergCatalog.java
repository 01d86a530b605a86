package dev.puddle.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.puddle.contract.Route;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadTableResponseParser;

/**
 * The warehouse as an Iceberg REST client reads it, read-only: the prefix from {@code /v1/config},
 * then namespaces, tables and table metadata, parsed with iceberg-core's REST models.
 */
final class IcebergCatalog {
  private final CatalogClient client;
  private String prefix;

  IcebergCatalog(CatalogClient client) {
    this.client = client;
  }

  /** The warehouse's namespaces below {@code parent} (or at the top), every page. */
  List<Namespace> namespaces(Namespace parent) {
    List<Namespace> namespaces = new ArrayList<>();
    String pageToken = null;
    do {
      Map<String, String> query = new LinkedHashMap<>();
      if (!parent.isEmpty()) {
        query.put("parent", RESTUtil.namespaceToQueryParam(parent));
      }
      if (pageToken != null) {
        query.put("pageToken", pageToken);
      }
      ListNamespacesResponse page =
          read(
              client.get(CatalogClient.path(Route.LIST_NAMESPACES, prefix()), query),
              ListNamespacesResponse.class);
      namespaces.addAll(page.namespaces());
      pageToken = page.nextPageToken();
    } while (pageToken != null);
    return namespaces;
  }

  GetNamespaceResponse namespace(Namespace namespace) {
    return read(
        client.get(
            CatalogClient.path(
                Route.LOAD_NAMESPACE, prefix(), RESTUtil.encodeNamespace(namespace))),
        GetNamespaceResponse.class);
  }

  List<TableIdentifier> tables(Namespace namespace) {
    List<TableIdentifier> tables = new ArrayList<>();
    String pageToken = null;
    do {
      Map<String, String> query = pageToken == null ? Map.of() : Map.of("pageToken", pageToken);
      ListTablesResponse page =
          read(
              client.get(
                  CatalogClient.path(
                      Route.LIST_TABLES, prefix(), RESTUtil.encodeNamespace(namespace)),
                  query),
              ListTablesResponse.class);
      tables.addAll(page.identifiers());
      pageToken = page.nextPageToken();
    } while (pageToken != null);
    return tables;
  }

  /** A table's current metadata, as loadTable answers it (without credentials: none asked). */
  TableMetadata table(TableIdentifier table) {
    JsonNode answer =
        client.get(
            CatalogClient.path(
                Route.LOAD_TABLE,
                prefix(),
                RESTUtil.encodeNamespace(table.namespace()),
                CatalogClient.segment(table.name())));
    try {
      return LoadTableResponseParser.fromJson(answer).tableMetadata();
    } catch (RuntimeException e) {
      throw new CliException(
          ExitCode.FAILED, "The catalog's table is not Iceberg metadata: " + e.getMessage());
    }
  }

  /** The warehouse's prefix, as {@code /v1/config} gives it to every client. */
  private String prefix() {
    if (prefix == null) {
      ConfigResponse config =
          read(
              client.get(
                  CatalogClient.path(Route.GET_CONFIG), Map.of("warehouse", client.warehouse())),
              ConfigResponse.class);
      String value = config.overrides().getOrDefault("prefix", config.defaults().get("prefix"));
      if (value == null) {
        throw new CliException(ExitCode.FAILED, "The catalog's config names no prefix");
      }
      prefix = value; // inserted as it is, as Iceberg's clients do
    }
    return prefix;
  }

  private static <T> T read(JsonNode node, Class<T> type) {
    try {
      return CatalogClient.JSON.treeToValue(node, type);
    } catch (JsonProcessingException | RuntimeException e) {
      throw new CliException(
          ExitCode.FAILED, "The catalog's answer is not a " + type.getSimpleName());
    }
  }
}
