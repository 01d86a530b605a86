package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.api.Gzip;
import dev.puddle.core.api.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Protects what API Gateway receives from the function: HEAD answers carry no body, large bodies
 * are gzipped (base64, {@code isBase64Encoded}) only for clients that accept gzip, and nothing over
 * Lambda's 6 MB limit is ever returned.
 */
class ResponseEncodingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final ResponseEncoding encoding = new ResponseEncoding(1024);

  @Test
  void aHeadAnswerHasStatusAndHeadersButNoBody() {
    Response notFound =
        Response.json(404, "{\"error\":{\"message\":\"m\",\"type\":\"t\",\"code\":404}}");

    HttpApiResponse response = encoding.encode("HEAD", "gzip", notFound);

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.headers()).containsEntry("content-type", "application/json");
    assertThat(response.body()).isNull();
  }

  @Test
  void aSmallBodyStaysText() {
    HttpApiResponse response =
        encoding.encode("GET", "gzip", Response.json(200, "{\"status\":\"ok\"}"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("{\"status\":\"ok\"}");
    assertThat(response.isBase64Encoded()).isFalse();
    assertThat(response.headers()).doesNotContainKey("content-encoding");
  }

  @Test
  void aSmallBodyCarryingItsGzipStaysText() {
    String body = "{\"metadata-location\":\"s3://b/t/metadata/00001.metadata.json\"}";

    HttpApiResponse response =
        encoding.encode("GET", "gzip", Response.json(200, body, Gzip.compress(body)));

    assertThat(response.body()).isEqualTo(body);
    assertThat(response.isBase64Encoded()).isFalse();
    assertThat(response.headers()).doesNotContainKey("content-encoding");
  }

  @Test
  void aLargeBodyIsGzippedForAClientThatAcceptsIt() throws IOException {
    String body = "{\"properties\":{\"k\":\"" + "v".repeat(10_000) + "\"}}";

    HttpApiResponse response =
        encoding.encode(
            "GET", "gzip, x-gzip, deflate", Response.json(200, body).withHeader("ETag", "\"e\""));

    assertThat(response.isBase64Encoded()).isTrue();
    assertThat(response.headers())
        .containsEntry("content-encoding", "gzip")
        .containsEntry("vary", "accept-encoding")
        .containsEntry("ETag", "\"e\"")
        .containsEntry("content-type", "application/json");
    assertThat(gunzip(response.body())).isEqualTo(body);
    assertThat(response.body().length()).isLessThan(body.length() / 10);
  }

  @Test
  void aBodyCarriedGzippedAlreadyIsNotCompressedAgain() throws IOException {
    String body = "{\"properties\":{\"k\":\"" + "v".repeat(10_000) + "\"}}";
    byte[] gzipped = Gzip.compress(body);

    HttpApiResponse gzip = encoding.encode("GET", "gzip", Response.json(200, body, gzipped));
    HttpApiResponse text = encoding.encode("GET", null, Response.json(200, body, gzipped));

    assertThat(Base64.getDecoder().decode(gzip.body())).isEqualTo(gzipped);
    assertThat(gunzip(gzip.body())).isEqualTo(body);
    assertThat(gzip.headers()).containsEntry("content-encoding", "gzip");
    assertThat(text.body()).isEqualTo(body);
    assertThat(text.isBase64Encoded()).isFalse();
  }

  @Test
  void aLargeBodyStaysTextWithoutGzipInAcceptEncoding() {
    String body = "{\"k\":\"" + "v".repeat(10_000) + "\"}";

    assertThat(encoding.encode("GET", null, Response.json(200, body)).body()).isEqualTo(body);
    assertThat(encoding.encode("GET", "deflate, br", Response.json(200, body)).isBase64Encoded())
        .isFalse();
    assertThat(encoding.encode("GET", "gzip;q=0", Response.json(200, body)).isBase64Encoded())
        .isFalse();
  }

  @Test
  void acceptEncodingIsReadAsHttpDefinesIt() {
    assertThat(ResponseEncoding.acceptsGzip("gzip")).isTrue();
    assertThat(ResponseEncoding.acceptsGzip("br, GZIP;q=0.5")).isTrue();
    assertThat(ResponseEncoding.acceptsGzip("*")).isTrue();
    assertThat(ResponseEncoding.acceptsGzip("identity")).isFalse();
    assertThat(ResponseEncoding.acceptsGzip("gzip; q=0.000")).isFalse();
    assertThat(ResponseEncoding.acceptsGzip("")).isFalse();
  }

  @Test
  void aBodyOverTheLambdaLimitBecomesAnErrorThatSaysWhy() throws IOException {
    String body = "{\"k\":\"" + "v".repeat(ResponseEncoding.MAX_BODY_CHARS) + "\"}";

    HttpApiResponse response = encoding.encode("GET", "identity", Response.json(200, body));

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(JSON.readTree(response.body()).at("/error/type").asText())
        .isEqualTo("ResponseTooLargeException");
    assertThat(JSON.readTree(response.body()).at("/error/message").asText())
        .contains("Accept-Encoding: gzip");
  }

  private static String gunzip(String base64) throws IOException {
    try (GZIPInputStream in =
        new GZIPInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(base64)))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
