package dev.puddle.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a grant is on, as users write it: {@code catalog}, {@code namespace sales.eu}, {@code table
 * sales.orders} or {@code view sales.daily}, namespace levels separated by dots. Its JSON is the
 * management API's grant.
 */
record Securable(String type, List<String> namespace, String name) {
  static final List<String> TYPES = List.of("catalog", "namespace", "table", "view");

  /** Whether {@code type} names an object (so a name follows it). */
  static boolean named(String type) {
    return !type.equals("catalog");
  }

  /** From a type and, for all but the catalog, a dotted name; IllegalArgumentException if bad. */
  static Securable parse(String type, String dotted) {
    String kind = type.toLowerCase(Locale.ROOT);
    if (!TYPES.contains(kind)) {
      throw new IllegalArgumentException(
          "Unknown securable '" + type + "': use catalog, namespace, table or view");
    }
    if (!named(kind)) {
      return new Securable(kind, List.of(), null);
    }
    List<String> levels = Names.levels(dotted);
    if (kind.equals("namespace")) {
      return new Securable(kind, levels, null);
    }
    if (levels.size() < 2) {
      throw new IllegalArgumentException(
          "A "
              + kind
              + " is written NAMESPACE."
              + kind.toUpperCase(Locale.ROOT)
              + ", e.g. sales.orders");
    }
    return new Securable(
        kind, List.copyOf(levels.subList(0, levels.size() - 1)), levels.get(levels.size() - 1));
  }

  /** The management API's grant of {@code privilege} on this. */
  ObjectNode grant(String privilege) {
    ObjectNode grant = CatalogClient.JSON.createObjectNode();
    grant.put("type", type);
    if (!type.equals("catalog")) {
      ArrayNode levels = grant.putArray("namespace");
      namespace.forEach(levels::add);
    }
    if (type.equals("table")) {
      grant.put("tableName", name);
    } else if (type.equals("view")) {
      grant.put("viewName", name);
    }
    grant.put("privilege", privilege);
    return grant;
  }

  /** The securable of a grant in the management API's JSON. */
  static Securable of(JsonNode grant) {
    List<String> levels = new ArrayList<>();
    JsonNode namespace = grant.get("namespace");
    if (namespace != null && namespace.isArray()) {
      namespace.forEach(level -> levels.add(level.asText()));
    }
    String type = Printer.text(grant, "type");
    String name =
        type.equals("table")
            ? Printer.text(grant, "tableName")
            : type.equals("view") ? Printer.text(grant, "viewName") : null;
    return new Securable(type, levels, name);
  }

  /** As the user would write it: {@code table sales.orders}. */
  @Override
  public String toString() {
    if (type.equals("catalog")) {
      return "catalog";
    }
    List<String> parts = new ArrayList<>(namespace);
    if (name != null) {
      parts.add(name);
    }
    return type + " " + Printer.text(String.join(".", parts));
  }
}
