package dev.puddle.core.metastore;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * One page of a listing and the token of the next, if any. Tokens are opaque to clients: the
 * last name of the page, so a page never skips or repeats names while others are created.
 */
public record Page<T>(List<T> items, String nextPageToken) {
  public Page {
    // Iceberg's response builders probe for nulls, which immutable List.copyOf rejects
    items = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(items));
  }

  static String tokenAfter(String lastName) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(lastName.getBytes(StandardCharsets.UTF_8));
  }

  /** The name the page starts after, or null for the first page. */
  static String nameAfter(String pageToken) {
    if (pageToken == null || pageToken.isEmpty()) {
      return null;
    }
    try {
      return new String(Base64.getUrlDecoder().decode(pageToken), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Invalid page token: %s", pageToken);
    }
  }
}
