package dev.puddle.core.rest;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.puddle.core.api.GzipAlongside;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTMessage;
import org.apache.iceberg.rest.RESTSerializers;

/**
 * JSON for the REST API, configured as Iceberg's own REST client and server configure it: field
 * access, kebab-case names and the serializers of {@link RESTSerializers}.
 */
public final class RestJson {
  private static final JsonFactory FACTORY =
      new JsonFactoryBuilder()
          .configure(JsonFactory.Feature.INTERN_FIELD_NAMES, false)
          .configure(JsonFactory.Feature.FAIL_ON_SYMBOL_HASH_OVERFLOW, false)
          .build();

  private static final ObjectMapper MAPPER = create();

  private RestJson() {}

  private static ObjectMapper create() {
    ObjectMapper mapper = new ObjectMapper(FACTORY);
    mapper.setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY);
    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    mapper.setPropertyNamingStrategy(new PropertyNamingStrategies.KebabCaseStrategy());
    RESTSerializers.registerAll(mapper);
    return mapper;
  }

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** Parses a request body; a body that does not parse is a 400, never a 500. */
  public static <T extends RESTMessage> T read(String body, Class<T> type) {
    if (body == null || body.isBlank()) {
      throw new BadRequestException("Malformed request: missing body");
    }
    int first = 0;
    while (Character.isWhitespace(body.charAt(first))) {
      first++;
    }
    if (body.charAt(first) != '{') {
      // an array, a scalar or null would otherwise read as a message with no fields
      throw new BadRequestException("Malformed request: the body is not a JSON object");
    }
    try {
      T message = MAPPER.readValue(body, type);
      if (message == null) {
        throw new BadRequestException("Malformed request: empty body");
      }
      return message;
    } catch (JsonProcessingException e) {
      throw new BadRequestException("Malformed request: %s", e.getOriginalMessage());
    } catch (NullPointerException | IllegalArgumentException | IllegalStateException e) {
      // Iceberg's parsers reject missing or invalid fields with these
      throw new BadRequestException("Malformed request: %s", e.getMessage());
    }
  }

  /**
   * A LoadTableResponse, in the shape LoadTableResponseParser writes, around metadata JSON that
   * TableMetadataParser already wrote, with its {@code config} if any.
   */
  static String loadTableResponse(
      String metadataLocation, String metadataJson, Map<String, String> config) {
    StringWriter out = new StringWriter(metadataJson.length() + metadataLocation.length() + 64);
    try (JsonGenerator generator = MAPPER.getFactory().createGenerator(out)) {
      generator.writeStartObject();
      generator.writeStringField("metadata-location", metadataLocation);
      generator.writeFieldName("metadata");
      generator.writeRawValue(metadataJson);
      if (!config.isEmpty()) {
        generator.writeObjectFieldStart("config");
        for (Map.Entry<String, String> entry : config.entrySet()) {
          generator.writeStringField(entry.getKey(), entry.getValue());
        }
        generator.writeEndObject();
      }
      generator.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * {@link #write} of {@code value} and, made while it is written, its gzip ({@link
   * GzipAlongside}): for large bodies, whose gzip would otherwise take as long again after writing.
   */
  public static GzipAlongside.Written writeGzipped(Object value, int expectedBytes) {
    GzipAlongside out = new GzipAlongside(expectedBytes);
    try {
      MAPPER.writeValue(out, value);
      return out.finish();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      out.abandon();
    }
  }

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
