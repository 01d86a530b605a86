package dev.puddle.core.metastore.dataapi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a row written by PostgreSQL's {@code row_to_json}: its values in column order. The object
 * is read as a stream, so that columns of the same name are all kept.
 */
final class RowJson {
  /**
   * A row holds whole metadata documents, which may be far larger than Jackson's defaults, and
   * decimals keep every digit PostgreSQL wrote.
   */
  private static final ObjectMapper MAPPER =
      new ObjectMapper(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxStringLength(Integer.MAX_VALUE)
                          .maxNumberLength(Integer.MAX_VALUE)
                          .build())
                  .build())
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private RowJson() {}

  static List<JsonNode> values(String json) throws SQLException {
    try (JsonParser parser = MAPPER.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new SQLException("Not a row: " + json);
      }
      List<JsonNode> values = new ArrayList<>();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        parser.nextToken();
        JsonNode value = parser.readValueAsTree();
        values.add(value == null ? NullNode.getInstance() : value);
      }
      return values;
    } catch (IOException e) {
      throw new SQLException("Cannot read a row returned by the Data API", e);
    }
  }
}
