package dev.puddle.core.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.access.Grant;
import dev.puddle.core.access.Principal;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Role;
import dev.puddle.core.access.Securable;
import dev.puddle.core.api.Response;
import dev.puddle.core.metastore.Page;
import dev.puddle.core.metastore.Warehouse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The JSON of the management API, in the shapes of Apache Polaris's management API: entities
 * wrapped in their kind ({@code {"principal":{...}}}), lists under a plural key, grants as {@code
 * {"type":"table","namespace":[...],"tableName":"t","privilege":"TABLE_READ_DATA"}}. A body that
 * does not have the expected shape is a 400.
 */
final class ManagementJson {
  private ManagementJson() {}

  /** The request body's object, or 400. */
  static JsonNode body(String body) {
    if (body == null || body.isBlank()) {
      throw new BadRequestException("Malformed request: missing body");
    }
    try {
      JsonNode node = RestJson.mapper().readTree(body);
      if (node == null || !node.isObject()) {
        throw new BadRequestException("Malformed request: the body must be a JSON object");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new BadRequestException("Malformed request: %s", e.getOriginalMessage());
    }
  }

  /** The object under {@code field}, or 400. */
  static JsonNode object(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isObject()) {
      throw new BadRequestException("Malformed request: missing object '%s'", field);
    }
    return value;
  }

  /** The text of {@code field}, or 400. */
  static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw new BadRequestException("Malformed request: missing string '%s'", field);
    }
    return value.asText();
  }

  /** The string map of {@code field}, empty if absent; 400 unless every value is a string. */
  static Map<String, String> properties(JsonNode node, String field) {
    JsonNode value = node.get(field);
    Map<String, String> result = new LinkedHashMap<>();
    if (value == null || value.isNull()) {
      return result;
    }
    if (!value.isObject()) {
      throw new BadRequestException("Malformed request: '%s' must be an object", field);
    }
    for (Map.Entry<String, JsonNode> entry : value.properties()) {
      if (!entry.getValue().isTextual()) {
        throw new BadRequestException(
            "Malformed request: property '%s' must be a string", entry.getKey());
      }
      result.put(entry.getKey(), entry.getValue().asText());
    }
    return result;
  }

  /** The grant of a grant request body: {@code {"grant":{"type":...,"privilege":...}}}. */
  static Grant grant(JsonNode body) {
    JsonNode grant = object(body, "grant");
    String type = text(grant, "type");
    Privilege privilege;
    try {
      privilege = Privilege.valueOf(text(grant, "privilege"));
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Unknown privilege: %s", grant.get("privilege").asText());
    }
    Securable securable =
        switch (type.toLowerCase(Locale.ROOT)) {
          case "catalog" -> Securable.catalog();
          case "namespace" -> {
            Namespace namespace = namespace(grant);
            if (namespace.isEmpty()) {
              throw new BadRequestException("Malformed request: empty 'namespace'");
            }
            yield Securable.namespace(namespace);
          }
          case "table" ->
              Securable.table(TableIdentifier.of(namespace(grant), text(grant, "tableName")));
          case "view" ->
              Securable.view(TableIdentifier.of(namespace(grant), text(grant, "viewName")));
          default ->
              throw new BadRequestException(
                  "Invalid grant type %s: use catalog, namespace, table or view", type);
        };
    return new Grant(privilege, securable);
  }

  /** The namespace levels under {@code namespace}, or 400. */
  static Namespace namespace(JsonNode grant) {
    JsonNode levels = grant.get("namespace");
    if (levels == null || !levels.isArray() || levels.isEmpty()) {
      throw new BadRequestException("Malformed request: missing array 'namespace'");
    }
    List<String> result = new ArrayList<>();
    for (JsonNode level : levels) {
      if (!level.isTextual() || level.asText().isEmpty()) {
        throw new BadRequestException("Malformed request: 'namespace' must hold strings");
      }
      result.add(level.asText());
    }
    return Namespace.of(result.toArray(String[]::new));
  }

  static ObjectNode json(Grant grant) {
    ObjectNode node = RestJson.mapper().createObjectNode();
    Securable securable = grant.securable();
    node.put("type", securable.kind().sql());
    if (securable.kind() != Securable.Kind.CATALOG) {
      ArrayNode levels = node.putArray("namespace");
      for (String level : securable.namespace().levels()) {
        levels.add(level);
      }
    }
    if (securable.kind() == Securable.Kind.TABLE) {
      node.put("tableName", securable.name());
    } else if (securable.kind() == Securable.Kind.VIEW) {
      node.put("viewName", securable.name());
    }
    node.put("privilege", grant.privilege().name());
    return node;
  }

  static ObjectNode json(Warehouse warehouse) {
    ObjectNode node = RestJson.mapper().createObjectNode();
    node.put("name", warehouse.name());
    node.put("location", warehouse.location());
    putProperties(node, warehouse.properties());
    return node;
  }

  static ObjectNode json(Principal principal) {
    ObjectNode node = RestJson.mapper().createObjectNode();
    node.put("name", principal.name());
    node.put("clientId", principal.clientId());
    putProperties(node, principal.properties());
    return node;
  }

  static ObjectNode json(Role role) {
    ObjectNode node = RestJson.mapper().createObjectNode();
    node.put("name", role.name());
    putProperties(node, role.properties());
    return node;
  }

  /** A principal with its new credential: the only answer that carries a secret. */
  static Response withCredentials(int status, Principal principal, PrincipalCredential credential) {
    ObjectNode body = RestJson.mapper().createObjectNode();
    body.set("principal", json(principal));
    ObjectNode credentials = body.putObject("credentials");
    credentials.put("clientId", credential.clientId());
    credentials.put("clientSecret", credential.clientSecret());
    return Response.json(status, body.toString()).withHeader("cache-control", "no-store");
  }

  /** {@code {"<key>":[...]}}. */
  static Response list(String key, List<ObjectNode> items) {
    ObjectNode body = RestJson.mapper().createObjectNode();
    body.putArray(key).addAll(items);
    return Response.json(200, body.toString());
  }

  private static void putProperties(ObjectNode node, Map<String, String> properties) {
    ObjectNode props = node.putObject("properties");
    properties.forEach(props::put);
  }

  /**
   * A listing's answer: its page of {@code items} as {@code field}, each as {@code json} writes it,
   * and the token of the next page when there is one.
   */
  static <T> Response page(String field, Page<T> page, Function<T, JsonNode> json) {
    ObjectNode body = RestJson.mapper().createObjectNode();
    ArrayNode list = body.putArray(field);
    page.items().forEach(item -> list.add(json.apply(item)));
    if (page.nextPageToken() != null) {
      body.put("next-page-token", page.nextPageToken());
    }
    return Response.json(200, body.toString());
  }
}
