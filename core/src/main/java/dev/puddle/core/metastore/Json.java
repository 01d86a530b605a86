package dev.puddle.core.metastore;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** String maps to and from the JSON kept in {@code jsonb} property columns. */
public final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final TypeReference<LinkedHashMap<String, String>> MAP = new TypeReference<>() {};

  private Json() {}

  public static Map<String, String> toMap(String json) {
    try {
      return json == null ? new LinkedHashMap<>() : MAPPER.readValue(json, MAP);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String fromMap(Map<String, String> map) {
    try {
      return MAPPER.writeValueAsString(map);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
