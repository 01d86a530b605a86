package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Holds the function's streaming reading of events and writing of responses to what databind made
 * of the records before: the same event from every sample event and from odd ones, and the same
 * bytes for every kind of response.
 */
class HttpApiJsonTest {
  private static final ObjectMapper DATABIND =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  @Test
  void everySampleEventReadsAsDatabindReadIt() throws IOException {
    Path events = Path.of(System.getProperty("puddle.events.dir"));
    List<Path> files;
    try (Stream<Path> listed = Files.list(events)) {
      files = listed.filter(file -> file.toString().endsWith(".json")).sorted().toList();
    }
    assertThat(files).hasSizeGreaterThan(10);
    for (Path file : files) {
      byte[] json = Files.readAllBytes(file);
      assertThat(read(json)).as(file.toString()).isEqualTo(databind(json));
    }
  }

  @Test
  void oddEventsReadAsDatabindReadThem() throws IOException {
    for (String json :
        List.of(
            "{}",
            "{\"requestContext\":null,\"headers\":null,\"isBase64Encoded\":null}",
            "{\"source\":\"aws.events\",\"detail\":{\"a\":[1,{\"b\":null}]},\"detail-type\":\"x\"}",
            "{\"rawPath\":\"/v1/config\",\"headers\":{\"a\":\"1\",\"b\":2,\"c\":true,\"d\":null},"
                + "\"cookies\":[\"x=1\",null],\"isBase64Encoded\":\"true\","
                + "\"requestContext\":{\"http\":{\"method\":\"get\",\"extra\":{}},"
                + "\"timeEpoch\":\"17\",\"other\":[1,2]},\"body\":12}",
            "{\"isBase64Encoded\":1,\"requestContext\":{\"timeEpoch\":1.5,\"http\":null}}",
            "{\"isBase64Encoded\":false,\"body\":\"\\u00e9\\n\",\"body\":\"last\"}")) {
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      assertThat(read(bytes)).as(json).isEqualTo(databind(bytes));
    }
  }

  @Test
  void malformedEventsFail() {
    for (String json :
        List.of(
            "",
            "[]",
            "{\"headers\":[\"a\"]}",
            "{\"rawPath\":{}}",
            "{\"isBase64Encoded\":\"maybe\"}",
            "{\"requestContext\":\"x\"}",
            "{\"body\":\"unterminated")) {
      assertThatThrownBy(() -> read(json.getBytes(StandardCharsets.UTF_8)))
          .as(json)
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void aStringOverTheLimitFailsAsTooLarge() {
    String body = "a".repeat(HttpApiJson.MAX_EVENT_STRING_CHARS + 1);
    byte[] json = ("{\"body\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> read(json)).isInstanceOf(StreamConstraintsException.class);
  }

  @Test
  void responsesAreWrittenByteForByteAsDatabindWroteThem() throws IOException {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("content-type", "application/json");
    headers.put("content-encoding", "gzip");
    headers.put("x-odd", "é \"quoted\" \u2028 \u0001");
    headers.put("x-null", null);
    for (HttpApiResponse response :
        List.of(
            new HttpApiResponse(204, null, null, false),
            new HttpApiResponse(200, headers, "{\"a\":\"é\\u0000\"}", false),
            new HttpApiResponse(200, headers, "H4sIAAAAAAAA/w==", true),
            new HttpApiResponse(404, Map.of(), "", false),
            new HttpApiResponse(500, headers, null, false))) {
      ByteArrayOutputStream written = new ByteArrayOutputStream();
      HttpApiJson.write(response, written);

      assertThat(written.toByteArray())
          .as(response.toString())
          .isEqualTo(DATABIND.writeValueAsBytes(response));
    }
  }

  private static HttpApiEvent read(byte[] json) throws IOException {
    try (InputStream in = new ByteArrayInputStream(json)) {
      return HttpApiJson.read(in);
    }
  }

  private static HttpApiEvent databind(byte[] json) throws IOException {
    return DATABIND.readValue(json, HttpApiEvent.class);
  }
}
