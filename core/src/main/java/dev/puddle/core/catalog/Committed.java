package dev.puddle.core.catalog;

import org.apache.iceberg.TableMetadata;

/**
 * A table's metadata as a commit left it, with the JSON the commit stored beside its pointer: the
 * commit's response serves that text instead of serializing the metadata again.
 */
public record Committed(TableMetadata metadata, String metadataJson) {}
