package dev.puddle.core.metastore;

import dev.puddle.core.events.CatalogObjectType;
import dev.puddle.core.events.OperationType;
import org.apache.iceberg.catalog.Namespace;

/**
 * What one change of one object records in the feed, in the change's own transaction: the feed it
 * belongs to (a warehouse, or none for a realm-wide management change), the operation's type, the
 * object (its type, namespace, name and Iceberg uuid, each null where it has none) and the
 * operation's JSON as the events proposal shapes it. Built by {@link
 * dev.puddle.core.events.CatalogEvents}; written by {@link EventStore}, and nowhere else.
 */
public record ChangeEvent(
    String realm,
    Long warehouseId,
    OperationType operationType,
    String customType,
    CatalogObjectType objectType,
    Namespace namespace,
    String name,
    String uuid,
    String operationJson) {}
