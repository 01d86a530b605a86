package dev.puddle.functions;

import dev.puddle.core.api.Response;
import dev.puddle.core.rest.ErrorMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Turns a core response into the response API Gateway expects, within Lambda's 6 MB limit for
 * synchronous responses: bodies from {@code minBytes} up are gzipped when the client accepts it and
 * travel base64-encoded ({@code isBase64Encoded}), so a table with 20 MB of metadata JSON still
 * loads. A response that does not fit even so is replaced by a 500 that says why, instead of Lambda
 * failing the invocation.
 */
final class ResponseEncoding {
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
    byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
    if (bytes.length >= minBytes && acceptsGzip(acceptEncoding)) {
      String body = Base64.getEncoder().encodeToString(gzip(bytes, Deflater.BEST_SPEED));
      if (body.length() > MAX_BODY_CHARS) {
        body = Base64.getEncoder().encodeToString(gzip(bytes, Deflater.BEST_COMPRESSION));
      }
      if (body.length() <= MAX_BODY_CHARS) {
        Map<String, String> headers = new HashMap<>(response.headers());
        headers.put("content-encoding", "gzip");
        headers.put("vary", "accept-encoding");
        return new HttpApiResponse(response.status(), headers, body, true);
      }
      return tooLarge(body.length(), "even gzipped");
    }
    if (bytes.length > MAX_BODY_CHARS) {
      return tooLarge(bytes.length, "uncompressed; send Accept-Encoding: gzip");
    }
    return new HttpApiResponse(response.status(), response.headers(), response.body(), false);
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

  /**
   * Gzips at {@code level}. The fastest level comes first: metadata JSON compresses about 5:1 even
   * so, while the default level takes over twice as long for a tenth less, most of a
   * multi-megabyte load's time; only a body that would not fit then gets the strongest.
   */
  private static byte[] gzip(byte[] bytes, int level) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 8 + 64);
    try (GZIPOutputStream gzip = new LeveledGzip(out, level)) {
      gzip.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static final class LeveledGzip extends GZIPOutputStream {
    LeveledGzip(ByteArrayOutputStream out, int level) throws IOException {
      super(out, 64 * 1024);
      def.setLevel(level);
    }
  }
}
