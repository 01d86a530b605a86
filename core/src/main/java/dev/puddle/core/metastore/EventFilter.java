package dev.puddle.core.metastore;

import java.util.List;

/**
 * What a read of the feed keeps, each criterion null when it keeps everything: events at or after a
 * time, of some operation types (a proposal type, or an {@code x-puddle-…} custom type), of some
 * object types, of objects by name (their levels, a table's or view's name last) or by Iceberg
 * uuid.
 */
public record EventFilter(
    Long sinceTimestampMs,
    List<String> operationTypes,
    List<String> objectTypes,
    List<List<String>> names,
    List<String> uuids) {
  public static final EventFilter ALL = new EventFilter(null, null, null, null, null);
}
