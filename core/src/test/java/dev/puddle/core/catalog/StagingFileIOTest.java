package dev.puddle.core.catalog;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The JSON a commit stores is the text of the metadata file iceberg-core staged: exactly what
 * serializing the metadata gives, so taking it instead changes nothing stored or answered.
 */
class StagingFileIOTest {
  private static final String TABLE = "s3://bucket/wh/ns/t";

  @Test
  void aPlainMetadataFileIsTheSerializedMetadata() {
    TableMetadata metadata = metadata(Map.of());
    String text = new String(staged(TABLE + "/metadata/x.metadata.json", metadata), UTF_8);
    assertThat(text).contains("日本語", "\\\"quoted\\\"");
    String path = TABLE + "/metadata/00001-a.metadata.json";
    byte[] bytes = staged(path, metadata);

    assertThat(StagingFileIO.json(path, bytes, metadata))
        .isEqualTo(TableMetadataParser.toJson(metadata));
  }

  /** A gzipped file's bytes are no text: its metadata is serialized again. */
  @Test
  void aCompressedMetadataFileIsSerializedAgain() {
    TableMetadata metadata = metadata(Map.of(TableProperties.METADATA_COMPRESSION, "gzip"));
    String path = TABLE + "/metadata/00001-a.gz.metadata.json";
    byte[] bytes = staged(path, metadata);

    assertThat(bytes[0]).isEqualTo((byte) 0x1f); // gzip's magic number
    assertThat(StagingFileIO.json(path, bytes, metadata))
        .isEqualTo(TableMetadataParser.toJson(metadata));
  }

  /** The file as {@code BaseMetastoreTableOperations} writes it, into a staging file IO. */
  private static byte[] staged(String path, TableMetadata metadata) {
    StagingFileIO staging = new StagingFileIO();
    TableMetadataParser.overwrite(metadata, staging.newOutputFile(path));
    return staging.written(path);
  }

  /** Metadata with a snapshot, and text that needs escaping or is not ASCII. */
  private static TableMetadata metadata(Map<String, String> properties) {
    Map<String, String> all = new HashMap<>(properties);
    all.put("comment", "Umlaute äöü, 日本語, emoji \uD83E\uDDCA, \"quoted\" \\ tab\t line\n end");
    TableMetadata base =
        TableMetadata.newTableMetadata(
            new Schema(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "naïve name", Types.StringType.get(), "doc ✓")),
            PartitionSpec.unpartitioned(),
            SortOrder.unsorted(),
            TABLE,
            all);
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    new MetadataUpdate.AddSnapshot(
            SnapshotParser.fromJson(
                "{\"snapshot-id\":1,\"timestamp-ms\":1,\"sequence-number\":1,\"summary\":"
                    + "{\"operation\":\"append\",\"added-records\":\"10\"},\"manifest-list\":\""
                    + TABLE
                    + "/metadata/snap-1.avro\",\"schema-id\":0}"))
        .applyTo(builder);
    return builder.build();
  }
}
