package dev.puddle.core.rest;

import dev.puddle.core.api.Request;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The {@code pageToken} and {@code pageSize} query parameters. A client that sends neither gets
 * every result, as clients that predate pagination expect.
 */
record Paging(String pageToken, int pageSize, boolean paginated) {
  static final int MAX_PAGE_SIZE = 1000;

  static Paging of(Request request) {
    String token = request.queryParameter("pageToken").orElse(null);
    String size = request.queryParameter("pageSize").orElse(null);
    if (token == null && size == null) {
      return new Paging(null, MAX_PAGE_SIZE, false);
    }
    int pageSize = MAX_PAGE_SIZE;
    if (size != null) {
      try {
        pageSize = Integer.parseInt(size);
      } catch (NumberFormatException e) {
        throw new BadRequestException("Invalid page size: %s", size);
      }
      if (pageSize < 1) {
        throw new BadRequestException("Invalid page size: %s", size);
      }
      pageSize = Math.min(pageSize, MAX_PAGE_SIZE);
    }
    return new Paging(token, pageSize, true);
  }
}
