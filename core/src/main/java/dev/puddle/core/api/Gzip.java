package dev.puddle.core.api;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Gzip of response bodies. The fastest level is the default: metadata JSON compresses about 5:1
 * even so, while the default level takes over twice as long for a tenth less, most of a
 * multi-megabyte load's time.
 */
public final class Gzip {
  private Gzip() {}

  /** The text's UTF-8 bytes gzipped at the fastest level. */
  public static byte[] compress(String text) {
    return compress(text.getBytes(StandardCharsets.UTF_8), Deflater.BEST_SPEED);
  }

  /** The bytes gzipped at {@code level} (a {@link Deflater} level). */
  public static byte[] compress(byte[] bytes, int level) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 8 + 64);
    try (GZIPOutputStream gzip = new LeveledGzip(out, level)) {
      gzip.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A gzip stream onto {@code out} at the fastest level, as {@link #compress(String)} writes. */
  static GZIPOutputStream fastest(OutputStream out) throws IOException {
    return new LeveledGzip(out, Deflater.BEST_SPEED);
  }

  /** The UTF-8 text of gzipped bytes. */
  public static String decompress(byte[] gzipped) {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final class LeveledGzip extends GZIPOutputStream {
    LeveledGzip(OutputStream out, int level) throws IOException {
      super(out, 64 * 1024);
      def.setLevel(level);
    }
  }
}
