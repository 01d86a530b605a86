package dev.puddle.functions;

import dev.puddle.core.api.Gzip;
import dev.puddle.core.api.Response;
import dev.puddle.core.rest.ErrorMapper;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.zip.Deflater;

/**
 * Turns a core response into the response API Gateway expects, within Lambda's 6 MB limit for
 * synchronous responses: bodies from {@code minBytes} up are gzipped when the client accepts it
 * (with the gzip the response carries, else at the fastest level) and travel base64-encoded ({@code
 * isBase64Encoded}), so a table with 20 MB of metadata JSON still loads. A response that does not
 * fit even so is replaced by a 500 that says why, instead of Lambda failing the invocation.
 */
final class ResponseEncoding {
  /**
   * Bodies from this size up are gzipped unless configured otherwise. Smaller ones fit in a TCP
   * connection's first flight (ten segments) either way, so compressing them would save no round
   * trip and cost both sides time.
   */
  static final int DEFAULT_MIN_BYTES = 8192;

  /** Lambda's synchronous response limit, less room for the envelope and headers. */
  static final int MAX_BODY_CHARS = 6 * 1024 * 1024 - 16 * 1024;

  private final int minBytes;

  ResponseEncoding(int minBytes) {
    this.minBytes = minBytes;
  }

  HttpApiResponse encode(String method, String acceptEncoding, Response response) {
    if ("HEAD".equals(method) || response.body() == null) {
      return new HttpApiResponse(response.status(), response.headers(), null, false);
    }
    // a body under minBytes goes as it is, even one that carries its gzip: on the wire it saves
    // nothing worth the client's inflating (JSON is ASCII, so its length is its size in bytes)
    boolean gzip = response.body().length() >= minBytes && acceptsGzip(acceptEncoding);
    if (gzip && response.gzippedBody() != null) {
      String body = Base64.getEncoder().encodeToString(response.gzippedBody());
      if (body.length() <= MAX_BODY_CHARS) {
        return gzipped(response, body);
      }
    }
    byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
    if (gzip) {
      String body = Base64.getEncoder().encodeToString(Gzip.compress(bytes, Deflater.BEST_SPEED));
      if (body.length() > MAX_BODY_CHARS) {
        body = Base64.getEncoder().encodeToString(Gzip.compress(bytes, Deflater.BEST_COMPRESSION));
      }
      if (body.length() <= MAX_BODY_CHARS) {
        return gzipped(response, body);
      }
      return tooLarge(body.length(), "even gzipped");
    }
    if (bytes.length > MAX_BODY_CHARS) {
      return tooLarge(bytes.length, "uncompressed; send Accept-Encoding: gzip");
    }
    return new HttpApiResponse(response.status(), response.headers(), response.body(), false);
  }

  private static HttpApiResponse gzipped(Response response, String base64Body) {
    Map<String, String> headers = new HashMap<>(response.headers());
    headers.put("content-encoding", "gzip");
    headers.put("vary", "accept-encoding");
    return new HttpApiResponse(response.status(), headers, base64Body, true);
  }

  private static HttpApiResponse tooLarge(int size, String how) {
    Response error =
        ErrorMapper.error(
            500,
            "ResponseTooLargeException",
            String.format(
                Locale.ROOT,
                "The response is %d bytes %s, over the 6 MB limit of AWS Lambda",
                size,
                how));
    return new HttpApiResponse(error.status(), error.headers(), error.body(), false);
  }

  /** Whether an Accept-Encoding value allows gzip: listed, or {@code *}, without {@code q=0}. */
  static boolean acceptsGzip(String acceptEncoding) {
    if (acceptEncoding == null) {
      return false;
    }
    for (String part : acceptEncoding.split(",")) {
      String[] fields = part.trim().split(";");
      String coding = fields[0].trim().toLowerCase(Locale.ROOT);
      if (coding.equals("gzip") || coding.equals("x-gzip") || coding.equals("*")) {
        boolean refused = false;
        for (int i = 1; i < fields.length; i++) {
          String parameter = fields[i].trim().toLowerCase(Locale.ROOT).replace(" ", "");
          if (parameter.startsWith("q=")) {
            refused = parameter.matches("q=0(\\.0{0,3})?");
          }
        }
        if (!refused) {
          return true;
        }
      }
    }
    return false;
  }
}
