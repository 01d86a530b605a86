package dev.puddle.core.rest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.CredentialParser;

/**
 * Table JSON read and amended without parsing metadata into {@code TableMetadata}: a table's
 * location and properties come from a streaming read that skips schemas and snapshots, and
 * credentials are added to a LoadTableResponse body by copying it token by token. Both cost little
 * next to the response itself, even for metadata of many megabytes.
 */
final class TableBodies {
  /** Where a table lives and its properties (for {@code write.data.path} and the like). */
  record TableLocation(String location, Map<String, String> properties) {}

  private TableBodies() {}

  /** The location and properties in table metadata JSON. */
  static TableLocation ofMetadata(String metadataJson) {
    try (JsonParser parser = RestJson.mapper().getFactory().createParser(metadataJson)) {
      expect(parser.nextToken(), JsonToken.START_OBJECT);
      return readMetadata(parser);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The location and properties of the table in a LoadTableResponse body. */
  static TableLocation ofResponse(String body) {
    try (JsonParser parser = RestJson.mapper().getFactory().createParser(body)) {
      expect(parser.nextToken(), JsonToken.START_OBJECT);
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (field.equals("metadata")) {
          expect(value, JsonToken.START_OBJECT);
          return readMetadata(parser);
        }
        parser.skipChildren();
      }
      throw new IllegalStateException("A table response without metadata");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads an object's location and properties, stopping as soon as it has both. */
  private static TableLocation readMetadata(JsonParser parser) throws IOException {
    String location = null;
    Map<String, String> properties = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME && (location == null || properties == null)) {
      String field = parser.currentName();
      JsonToken value = parser.nextToken();
      if (field.equals("location") && value == JsonToken.VALUE_STRING) {
        location = parser.getText();
      } else if (field.equals("properties") && value == JsonToken.START_OBJECT) {
        properties = new HashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String key = parser.currentName();
          parser.nextToken();
          properties.put(key, parser.getText());
        }
      } else {
        parser.skipChildren();
      }
    }
    if (location == null) {
      throw new IllegalStateException("Table metadata without a location");
    }
    return new TableLocation(location, properties == null ? Map.of() : properties);
  }

  /**
   * The LoadTableResponse body with {@code config} entries added (they win over entries of the same
   * name) and {@code storage-credentials}.
   */
  static String withCredentials(
      String body, Map<String, String> config, List<Credential> credentials) {
    StringWriter out = new StringWriter(body.length() + 1024);
    try (JsonParser parser = RestJson.mapper().getFactory().createParser(body);
        JsonGenerator generator = RestJson.mapper().getFactory().createGenerator(out)) {
      expect(parser.nextToken(), JsonToken.START_OBJECT);
      Map<String, String> merged = new LinkedHashMap<>();
      generator.writeStartObject();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        parser.nextToken();
        if (field.equals("config")) {
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            parser.nextToken();
            merged.put(key, parser.getText());
          }
        } else if (field.equals("storage-credentials")) {
          parser.skipChildren();
        } else {
          generator.writeFieldName(field);
          generator.copyCurrentStructure(parser);
        }
      }
      merged.putAll(config);
      generator.writeObjectFieldStart("config");
      for (Map.Entry<String, String> entry : merged.entrySet()) {
        generator.writeStringField(entry.getKey(), entry.getValue());
      }
      generator.writeEndObject();
      generator.writeArrayFieldStart("storage-credentials");
      for (Credential credential : credentials) {
        CredentialParser.toJson(credential, generator);
      }
      generator.writeEndArray();
      generator.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void expect(JsonToken actual, JsonToken expected) {
    if (actual != expected) {
      throw new IllegalStateException("Expected " + expected + " in table JSON, not " + actual);
    }
  }
}
