package dev.puddle.core.metastore;

import dev.puddle.core.events.CatalogObjectType;
import org.apache.iceberg.catalog.Namespace;

/**
 * An event as the feed stores it: its position in the feed ({@code id}), what the events proposal's
 * {@code Event} shows, and the object it is about (for the access check of a reader), whose type is
 * null for a management event.
 */
public record StoredEvent(
    long id,
    String eventId,
    String realm,
    Long warehouseId,
    String requestId,
    int requestEventCount,
    long timestampMs,
    String actorPrincipal,
    String actorRealm,
    CatalogObjectType objectType,
    Namespace namespace,
    String name,
    String operationJson) {}
