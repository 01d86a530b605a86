package dev.puddle.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Helpers that turn the catalog's JSON into table rows, and properties into JSON. */
final class Rows {
  private Rows() {}

  /** A row per element of a JSON array (none for a missing one). */
  static List<List<String>> of(JsonNode array, Function<JsonNode, List<String>> row) {
    List<List<String>> rows = new ArrayList<>();
    if (array != null && array.isArray()) {
      array.forEach(item -> rows.add(row.apply(item)));
    }
    return rows;
  }

  /** Adds each property as a field {@code property.<key>}, in key order. */
  static void properties(JsonNode properties, Map<String, String> fields) {
    if (properties != null && properties.isObject()) {
      properties.properties().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> fields.put("property." + e.getKey(), e.getValue().asText()));
    }
  }

  static void putProperties(ObjectNode node, Map<String, String> properties) {
    ObjectNode object = node.putObject("properties");
    properties.forEach(object::put);
  }
}
