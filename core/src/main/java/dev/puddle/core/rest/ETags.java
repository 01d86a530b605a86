package dev.puddle.core.rest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Entity tags of table loads: a hash of the metadata location and of the snapshot mode, so a tag
 * changes exactly when the response would.
 */
final class ETags {
  /**
   * The response header's name, spelled as RFC 9110 does: header names are case-insensitive, but
   * Iceberg's Java client (1.11) looks this one up case-sensitively, and keeps a loaded table for
   * revalidation only when it finds it.
   */
  static final String HEADER = "ETag";

  private ETags() {}

  static String of(String metadataLocation, String snapshotMode) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] hash =
          digest.digest((metadataLocation + "\n" + snapshotMode).getBytes(StandardCharsets.UTF_8));
      return "\"" + HexFormat.of().formatHex(hash, 0, 16) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether an {@code If-None-Match} header value matches the tag. */
  static boolean matches(String ifNoneMatch, String etag) {
    if (ifNoneMatch == null) {
      return false;
    }
    String bare = strip(etag);
    for (String candidate : ifNoneMatch.split(",")) {
      String value = candidate.strip();
      if (value.equals("*") || strip(value).equals(bare)) {
        return true;
      }
    }
    return false;
  }

  private static String strip(String tag) {
    String value = tag.startsWith("W/") ? tag.substring(2) : tag;
    if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
      value = value.substring(1, value.length() - 1);
    }
    return value;
  }
}
