package dev.puddle.core.catalog;

import dev.puddle.core.api.RequestScope;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * The JSON of a table's full metadata, serialized once per request: a commit stores it beside the
 * pointer, and the commit's response serves the same text instead of serializing the metadata
 * again.
 */
public final class MetadataJson {
  private record Key(String metadataLocation) {}

  private MetadataJson() {}

  /** The JSON of the full metadata in {@code metadata}'s file. */
  public static String of(TableMetadata metadata) {
    String location = metadata.metadataFileLocation();
    return location == null
        ? TableMetadataParser.toJson(metadata)
        : RequestScope.current()
            .memo(new Key(location), () -> TableMetadataParser.toJson(metadata));
  }

  /** Remembers, for this request, the JSON just written to {@code metadataLocation}. */
  static String remember(String metadataLocation, String json) {
    return RequestScope.current().memo(new Key(metadataLocation), () -> json);
  }
}
