package dev.puddle.core.catalog;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.metastore.Warehouse;
import java.util.Map;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The files a commit adds must lie within the table's location or its write paths. */
class CommittedFilesTest {
  private static final Warehouse WAREHOUSE =
      new Warehouse(1, "realm", "wh", "s3://bucket/wh", Map.of());
  private static final String TABLE = "s3://bucket/wh/ns/t";

  @Test
  void aManifestListUnderTheTableOrAWritePathIsTaken() {
    assertThatCode(() -> CommittedFiles.check(WAREHOUSE, withSnapshot(TABLE + "/s.avro", Map.of())))
        .doesNotThrowAnyException();
    assertThatCode(
            () ->
                CommittedFiles.check(
                    WAREHOUSE,
                    withSnapshot(
                        "s3://bucket/wh/meta/s.avro",
                        Map.of("write.metadata.path", "s3://bucket/wh/meta"))))
        .doesNotThrowAnyException();
  }

  /** Trino's smoke suite creates tables whose location ends in a space: it is part of the key. */
  @Test
  void aLocationEndingInASpaceHoldsTheFilesBelowIt() {
    String spaced = TABLE + " ";
    assertThatCode(
            () ->
                CommittedFiles.check(
                    WAREHOUSE, withSnapshot(spaced + "/metadata/s.avro", Map.of(), spaced)))
        .doesNotThrowAnyException();
    assertThatThrownBy(
            () ->
                CommittedFiles.check(
                    WAREHOUSE, withSnapshot(TABLE + "x/metadata/s.avro", Map.of(), spaced)))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void aManifestListElsewhereIsRefused() {
    for (String list :
        new String[] {
          "s3://other/s.avro", "s3://bucket/wh/ns/u/s.avro", TABLE + "/../u/s.avro", "file:/s.avro"
        }) {
      assertThatThrownBy(() -> CommittedFiles.check(WAREHOUSE, withSnapshot(list, Map.of())))
          .as(list)
          .isInstanceOf(BadRequestException.class);
    }
  }

  /** New table metadata at {@link #TABLE} that adds a snapshot with this manifest list. */
  private static TableMetadata withSnapshot(String manifestList, Map<String, String> properties) {
    return withSnapshot(manifestList, properties, TABLE);
  }

  /** New table metadata at {@code location} that adds a snapshot with this manifest list. */
  private static TableMetadata withSnapshot(
      String manifestList, Map<String, String> properties, String location) {
    TableMetadata base =
        TableMetadata.newTableMetadata(
            new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
            PartitionSpec.unpartitioned(),
            SortOrder.unsorted(),
            location,
            properties);
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    new MetadataUpdate.AddSnapshot(
            SnapshotParser.fromJson(
                "{\"snapshot-id\":1,\"timestamp-ms\":1,\"sequence-number\":1,\"summary\":"
                    + "{\"operation\":\"append\"},\"manifest-list\":\""
                    + manifestList
                    + "\",\"schema-id\":0}"))
        .applyTo(builder);
    return builder.build();
  }
}
