package dev.puddle.core.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The load response built around stored metadata JSON is the one iceberg-core would write. */
class RestJsonTest {
  private static final String LOCATION = "s3://warehouse/ns/t/metadata/00000-a.metadata.json";

  @Test
  void storedMetadataMakesTheSameLoadTableResponseAsParsingAndWriting() {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name \"quoted\" ünïcode", Types.StringType.get()));
    TableMetadata metadata =
        TableMetadata.newTableMetadata(
            schema,
            PartitionSpec.builderFor(schema).bucket("id", 4).build(),
            SortOrder.unsorted(),
            "s3://warehouse/ns/t",
            Map.of("owner", "puddle", "comment", "line\nbreak"));
    String stored = TableMetadataParser.toJson(metadata);

    String spliced = RestJson.loadTableResponse(LOCATION, stored, Map.of());
    String written =
        RestJson.write(
            LoadTableResponse.builder()
                .withTableMetadata(TableMetadataParser.fromJson(LOCATION, stored))
                .build());

    assertThat(spliced).isEqualTo(written);
  }
}
