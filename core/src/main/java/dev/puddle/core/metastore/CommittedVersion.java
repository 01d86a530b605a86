package dev.puddle.core.metastore;

import dev.puddle.core.metastore.CatalogObject.Kind;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The metadata a change's transaction makes current for one table or view, known before its {@code
 * COMMIT}: a keyed request whose response is built from that version (a create or commit) stores
 * the response with its key in the same transaction ({@link IdempotencyMark}).
 */
public record CommittedVersion(
    TableIdentifier identifier, Kind kind, String metadataLocation, String metadataJson) {}
