package dev.puddle.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.metastore.DroppedObject;
import dev.puddle.core.metastore.DroppedObjects;
import dev.puddle.core.metastore.Page;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.TableIdentifierParser;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * A warehouse's dropped tables and views, kept for undrop by its {@code drop.retention}: {@code GET
 * /admin/v1/warehouses/{warehouse}/dropped-objects} lists them, most recently dropped first, paged
 * as the catalog's listings are; {@code POST …/dropped-objects/{object}/undrop} puts one back,
 * under the name it had or the {@code destination} of its body (an Iceberg table identifier).
 */
final class DroppedObjectEndpoints {
  private final DroppedObjects dropped;

  DroppedObjectEndpoints(DroppedObjects dropped) {
    this.dropped = dropped;
  }

  Response listDroppedObjects(Scope scope) {
    Paging paging = Paging.of(scope.request());
    Page<DroppedObject> page =
        dropped.list(scope.warehouse(), paging.pageToken(), paging.pageSize());
    return ManagementJson.page("dropped-objects", page, DroppedObjectEndpoints::json);
  }

  Response undropObject(Scope scope) {
    Request request = scope.request();
    TableIdentifier destination = destination(request.body());
    if (destination != null) {
      Names.checkCreatable(destination);
    }
    UUID id = id(request.pathParameter("object").orElseThrow());
    DroppedObject undropped = dropped.undrop(scope.warehouse(), id, destination, scope.change());
    ObjectNode body = RestJson.mapper().createObjectNode();
    body.put("id", undropped.id().toString());
    body.put("kind", undropped.kind().sql());
    body.set("identifier", identifier(undropped.identifier()));
    body.put("metadata-location", undropped.metadataLocation());
    return Response.json(200, body.toString());
  }

  /** An unknown id and one that is no UUID name nothing alike: both are 404. */
  private static UUID id(String value) {
    try {
      return UUID.fromString(value);
    } catch (IllegalArgumentException e) {
      throw new NotFoundException("Dropped table or view does not exist: %s", value);
    }
  }

  /** The body's {@code destination}, or null if it gives none ({@code {}}). */
  private static TableIdentifier destination(String body) {
    JsonNode destination = ManagementJson.body(body).get("destination");
    if (destination == null || destination.isNull()) {
      return null;
    }
    try {
      return TableIdentifierParser.fromJson(destination);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Malformed request: destination: %s", e.getMessage());
    }
  }

  private static ObjectNode json(DroppedObject object) {
    ObjectNode node = RestJson.mapper().createObjectNode();
    node.put("id", object.id().toString());
    node.put("kind", object.kind().sql());
    node.set("identifier", identifier(object.identifier()));
    node.put("location", object.location());
    node.put("metadata-location", object.metadataLocation());
    node.put("dropped-at", object.droppedAt().toString());
    node.put("dropped-by", object.droppedBy());
    node.put("purge-requested", object.purgeRequested());
    node.put("purge-due", object.purgeDue().toString());
    return node;
  }

  private static JsonNode identifier(TableIdentifier identifier) {
    return RestJson.mapper().valueToTree(identifier);
  }
}
