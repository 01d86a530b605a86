package dev.puddle.core.metastore;

import java.time.Instant;
import java.util.UUID;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * A keyset position in a newest-first listing (purge jobs, maintenance runs, dropped objects): the
 * row's time and id, which a page token carries as its key.
 */
record NewestFirst(Instant at, UUID id) {
  /** The page token key of the row at {@code at} with {@code id}. */
  static String key(Instant at, UUID id) {
    return at + " " + id;
  }

  /** The position a page token names, or null for the first page. */
  static NewestFirst after(String pageToken) {
    String key = Page.keyAfter(pageToken);
    if (key == null) {
      return null;
    }
    try {
      String[] parts = key.split(" ");
      return new NewestFirst(Instant.parse(parts[0]), UUID.fromString(parts[1]));
    } catch (RuntimeException e) {
      throw new BadRequestException("Invalid page token: %s", pageToken);
    }
  }
}
