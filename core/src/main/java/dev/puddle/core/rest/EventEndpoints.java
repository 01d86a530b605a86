package dev.puddle.core.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.access.AccessPolicy;
import dev.puddle.core.api.Response;
import dev.puddle.core.events.CatalogObjectType;
import dev.puddle.core.events.Event;
import dev.puddle.core.events.EventRetention;
import dev.puddle.core.events.EventsExpiredException;
import dev.puddle.core.events.OperationType;
import dev.puddle.core.events.QueryEventsRequest;
import dev.puddle.core.events.QueryEventsResponse;
import dev.puddle.core.metastore.EventFilter;
import dev.puddle.core.metastore.EventStore;
import dev.puddle.core.metastore.StoredEvent;
import dev.puddle.core.metastore.Warehouse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * {@code POST /v1/{prefix}/events}: a page of the warehouse's change-event feed, oldest first, in
 * the events proposal's shapes. One indexed query per page; the caller sees the events of the
 * objects it may list and, if it manages the warehouse's access, its management changes ({@link
 * AccessPolicy#showsEvent}). A page may hold fewer events than asked for, none even, when the
 * caller may not see some: its continuation token still moves past them.
 *
 * <p>The continuation token is opaque to clients: the warehouse, the position of the last event
 * read and that event's time (the time of the query, for a page with nothing new). A token of
 * another warehouse or one that does not decode is a 400; one, or a {@code since-timestamp-ms},
 * older than the warehouse's retention is a 410, since events after it may be gone.
 */
final class EventEndpoints {
  static final int DEFAULT_PAGE_SIZE = 100;
  static final int MAX_PAGE_SIZE = 1000;

  /** Made by the first query of the change feed, not when a function's wiring makes this. */
  private static final class Json {
    static final ObjectMapper MAPPER =
        new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
  }

  private static final String TOKEN_VERSION = "e1";

  /** Where a page starts: after the event of {@code afterId}, read at {@code timestampMs}. */
  private record Position(long afterId, long timestampMs) {}

  private final EventStore events;
  private final Clock clock;

  EventEndpoints(EventStore events, Clock clock) {
    this.events = events;
    this.clock = clock;
  }

  Response queryEvents(Scope scope) {
    QueryEventsRequest query = parse(scope.request().body());
    Warehouse warehouse = scope.warehouse();
    long now = clock.millis();
    long oldest = now - EventRetention.of(warehouse).toMillis();
    Position from =
        query.continuationToken() == null
            ? new Position(0, now)
            : decode(warehouse, query.continuationToken());
    if (query.continuationToken() != null && from.timestampMs() < oldest) {
      throw new EventsExpiredException(
          "The continuation token is older than the warehouse's event retention (%s)",
          EventRetention.of(warehouse));
    }
    if (query.sinceTimestampMs() != null && query.sinceTimestampMs() < oldest) {
      throw new EventsExpiredException(
          "since-timestamp-ms %d is before the oldest event kept, %s",
          query.sinceTimestampMs(), Instant.ofEpochMilli(oldest));
    }
    int pageSize = pageSize(query.pageSize());
    boolean management = AccessPolicy.showsEvent(scope.access(), null, null, null);
    List<StoredEvent> read =
        events.page(warehouse, management, filter(query), from.afterId(), pageSize);
    List<Event> shown = new ArrayList<>();
    for (StoredEvent event : read) {
      if (AccessPolicy.showsEvent(
          scope.access(), event.objectType(), event.namespace(), event.name())) {
        shown.add(event(event));
      }
    }
    Position next =
        read.isEmpty()
            ? new Position(from.afterId(), now)
            : new Position(read.getLast().id(), read.getLast().timestampMs());
    return Response.json(
        200, RestJson.write(new QueryEventsResponse(encode(warehouse, next), shown)));
  }

  private static QueryEventsRequest parse(String body) {
    if (body == null || body.isBlank()) {
      // as every route that takes a body: {} asks for everything
      throw new BadRequestException("Malformed request: a QueryEventsRequest body is required");
    }
    QueryEventsRequest query;
    try {
      query = Json.MAPPER.readValue(body, QueryEventsRequest.class);
    } catch (JsonProcessingException e) {
      throw new BadRequestException("Malformed request: %s", e.getOriginalMessage());
    }
    if (query == null) {
      throw new BadRequestException("Malformed request: the body is not a JSON object");
    }
    if (query.customFilters() != null && !query.customFilters().isEmpty()) {
      throw new BadRequestException(
          "Unsupported custom-filters %s: this catalog has none", query.customFilters().keySet());
    }
    return query;
  }

  private static int pageSize(Integer requested) {
    if (requested == null) {
      return DEFAULT_PAGE_SIZE;
    }
    if (requested < 1) {
      throw new BadRequestException("Invalid page-size %d: must be positive", requested);
    }
    return Math.min(requested, MAX_PAGE_SIZE);
  }

  private static EventFilter filter(QueryEventsRequest query) {
    if (query.operationTypes() != null) {
      for (String type : query.operationTypes()) {
        if (OperationType.fromType(type).isEmpty()
            && !type.startsWith(OperationType.PUDDLE_PREFIX)) {
          throw new BadRequestException("Invalid operation type: %s", type);
        }
      }
    }
    if (query.objectTypes() != null) {
      for (String type : query.objectTypes()) {
        if (CatalogObjectType.fromType(type).isEmpty()) {
          throw new BadRequestException(
              "Invalid object type %s: use table, view or namespace", type);
        }
      }
    }
    if (query.catalogObjectsByName() != null
        && query.catalogObjectsByName().stream().anyMatch(n -> n == null || n.isEmpty())) {
      throw new BadRequestException("Invalid catalog-objects-by-name: a name has no levels");
    }
    return new EventFilter(
        query.sinceTimestampMs(),
        query.operationTypes(),
        query.objectTypes(),
        query.catalogObjectsByName(),
        query.catalogObjectsByUuid());
  }

  private static Event event(StoredEvent stored) {
    Map<String, String> actor = new LinkedHashMap<>();
    if (stored.actorPrincipal() != null) {
      actor.put("principal", stored.actorPrincipal());
      actor.put("realm", stored.actorRealm());
    }
    return new Event(
        stored.eventId(),
        stored.requestId(),
        stored.requestEventCount(),
        stored.timestampMs(),
        actor.isEmpty() ? null : actor,
        stored.operationJson());
  }

  private static String encode(Warehouse warehouse, Position position) {
    String token =
        String.join(
            ":",
            TOKEN_VERSION,
            Long.toString(warehouse.id()),
            Long.toString(position.afterId()),
            Long.toString(position.timestampMs()));
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(token.getBytes(StandardCharsets.UTF_8));
  }

  private static Position decode(Warehouse warehouse, String token) {
    try {
      String[] parts =
          new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split(":");
      if (parts.length == 4
          && parts[0].equals(TOKEN_VERSION)
          && Long.parseLong(parts[1]) == warehouse.id()) {
        return new Position(Long.parseLong(parts[2]), Long.parseLong(parts[3]));
      }
    } catch (IllegalArgumentException e) {
      // not base64, or not numbers: the same answer as a token of another warehouse
    }
    throw new BadRequestException("Invalid continuation-token: %s", token);
  }
}
