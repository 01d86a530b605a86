package dev.puddle.core.metastore;

import dev.puddle.core.metastore.CatalogObject.Kind;
import java.time.Instant;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A table or view dropped within its warehouse's retention: hidden from every Iceberg operation,
 * its row, files and grants kept until an undrop or until {@code purgeDue}.
 *
 * @param identifier the name it had when it was dropped
 * @param droppedBy the principal whose request dropped it
 * @param purgeRequested whether the drop asked for its files to be deleted
 * @param purgeDue when the sweep removes it for good (and purges its files, if requested)
 */
public record DroppedObject(
    UUID id,
    TableIdentifier identifier,
    Kind kind,
    String location,
    String metadataLocation,
    Instant droppedAt,
    String droppedBy,
    boolean purgeRequested,
    Instant purgeDue) {}
