package dev.puddle.core.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.rest.responses.LoadTableResponseParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Credentials added to a load response without parsing its metadata read back as Iceberg's. */
class TableBodiesTest {
  private static final String TABLE = "s3://warehouse/ns/t";
  private static final String LOCATION = TABLE + "/metadata/00000-a.metadata.json";
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final TableMetadata METADATA =
      TableMetadata.newTableMetadata(
          SCHEMA,
          PartitionSpec.unpartitioned(),
          SortOrder.unsorted(),
          TABLE,
          Map.of("write.data.path", "s3://bulk/t", "owner", "puddle"));

  @Test
  void locationAndPropertiesComeFromStoredMetadataAndFromResponses() {
    String stored = TableMetadataParser.toJson(METADATA);

    TableBodies.TableLocation fromMetadata = TableBodies.ofMetadata(stored);
    TableBodies.TableLocation fromResponse =
        TableBodies.ofResponse(RestJson.loadTableResponse(LOCATION, stored, Map.of()));

    for (TableBodies.TableLocation table : List.of(fromMetadata, fromResponse)) {
      assertThat(table.location()).isEqualTo(TABLE);
      assertThat(table.properties())
          .containsEntry("write.data.path", "s3://bulk/t")
          .containsEntry("owner", "puddle");
    }
  }

  @Test
  void credentialsAreAddedAndTheRestOfTheResponseIsKept() {
    String body =
        RestJson.write(
            LoadTableResponse.builder()
                .withTableMetadata(
                    TableMetadataParser.fromJson(LOCATION, TableMetadataParser.toJson(METADATA)))
                .addConfig("kept", "yes")
                .addConfig("s3.access-key-id", "replaced")
                .build());
    Map<String, String> config = Map.of("s3.access-key-id", "ASIA1", "s3.session-token", "t");
    Credential credential = ImmutableCredential.builder().prefix(TABLE).config(config).build();

    LoadTableResponse amended =
        LoadTableResponseParser.fromJson(
            TableBodies.withCredentials(body, config, List.of(credential)));

    assertThat(amended.metadataLocation()).isEqualTo(LOCATION);
    TableMetadata original = LoadTableResponseParser.fromJson(body).tableMetadata();
    assertThat(TableMetadataParser.toJson(amended.tableMetadata()))
        .isEqualTo(TableMetadataParser.toJson(original));
    assertThat(amended.config())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("kept", "yes", "s3.access-key-id", "ASIA1", "s3.session-token", "t"));
    assertThat(amended.credentials()).containsExactly(credential);
  }
}
