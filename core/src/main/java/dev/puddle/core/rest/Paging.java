package dev.puddle.core.rest;

import dev.puddle.core.api.Request;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.Listing;
import dev.puddle.core.metastore.Page;
import dev.puddle.core.metastore.Warehouse;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The {@code pageToken} and {@code pageSize} query parameters. A catalog listing without {@code
 * pageSize} answers every entry up to {@link #RESPONSE_BUDGET} bytes of JSON, as clients that
 * predate pagination expect, and a token for the rest beyond it (a synchronous Lambda response
 * carries at most 6 MB); the management API's listings, whose entries are larger, page by {@link
 * #MAX_PAGE_SIZE} then.
 */
record Paging(String pageToken, int pageSize, boolean paginated) {
  static final int MAX_PAGE_SIZE = 1000;

  /**
   * The bytes of entries a listing without {@code pageSize} answers at most, well under Lambda's 6
   * MB response limit (the response is further wrapped in the invocation's JSON).
   */
  static final long RESPONSE_BUDGET = 4L * 1024 * 1024;

  /**
   * The entries a catalog listing without {@code pageSize} reads with the caller's access, in one
   * statement: a namespace of that many tables answers in one round trip. A response budget's worth
   * of the shortest entries would be over 100,000 rows, read whether the budget ends them or not.
   */
  static final int FIRST_READ = 10_000;

  static Paging of(Request request) {
    String token = request.queryParameter("pageToken").orElse(null);
    String size = request.queryParameter("pageSize").orElse(null);
    if (size == null) {
      // a client that pages by the server's default sends the token it got back, still no size
      return new Paging(token, MAX_PAGE_SIZE, false);
    }
    int pageSize;
    try {
      pageSize = Integer.parseInt(size);
    } catch (NumberFormatException e) {
      throw new BadRequestException("Invalid page size: %s", size);
    }
    if (pageSize < 1) {
      throw new BadRequestException("Invalid page size: %s", size);
    }
    return new Paging(token, Math.min(pageSize, MAX_PAGE_SIZE), true);
  }

  /** Where a listing's rows come from: the page of at most {@code size} after a token. */
  interface Source<T> {
    Page<T> page(String token, int size);
  }

  /**
   * What a catalog listing reads first, for the access check to read in the same round trip: its
   * first page. Null for any other request, and for a listing whose namespace, parent, page size or
   * token is not valid (its endpoint answers 400 once the access is checked).
   */
  static Listing listingOf(Request request, Warehouse warehouse) {
    Kind kind;
    switch (request.route()) {
      case LIST_TABLES -> kind = Kind.TABLE;
      case LIST_VIEWS -> kind = Kind.VIEW;
      case LIST_NAMESPACES -> kind = null;
      default -> {
        return null;
      }
    }
    try {
      Namespace parent =
          kind == null
              ? Names.namespace(request.queryParameter("parent").orElse(null))
              : Scope.namespaceOf(request);
      return of(request).listing(warehouse, parent, kind);
    } catch (BadRequestException e) {
      return null;
    }
  }

  /**
   * The first page of a catalog listing of {@code parent} ({@code kind} null: its namespaces) this
   * request gets, for the access check to read: a page of {@link #pageSize} when paginated, else
   * {@link #FIRST_READ}.
   */
  Listing listing(Warehouse warehouse, Namespace parent, Kind kind) {
    return new Listing(warehouse.id(), parent, kind, pageToken, paginated ? pageSize : FIRST_READ);
  }

  /**
   * The page of a catalog listing this request gets: one page of {@link #pageSize} when paginated,
   * else every entry within {@link #RESPONSE_BUDGET} by {@code bytesOf}, with the token after the
   * last one it holds. Its first page is {@code first}, read with the caller's access for {@link
   * #listing}, if it was; the others come from {@code source}.
   */
  <T> Page<T> fetch(
      Optional<Page<T>> first,
      Source<T> source,
      ToLongFunction<T> bytesOf,
      Function<T, String> tokenAfter) {
    Function<String, Page<T>> pages =
        new Function<>() {
          private Optional<Page<T>> unread = first;

          @Override
          public Page<T> apply(String token) {
            Optional<Page<T>> page = unread;
            unread = Optional.empty();
            // pages of MAX_PAGE_SIZE after the first: with a larger limit, PostgreSQL may sort a
            // namespace of a few thousand children (seq scan, then sort: 12 ms for 2,000) instead
            // of reading them in order from its index (under 1 ms)
            return page.orElseGet(() -> source.page(token, pageSize));
          }
        };
    if (paginated) {
      return pages.apply(pageToken);
    }
    return Page.fetchWithin(pages, pageToken, RESPONSE_BUDGET, bytesOf, tokenAfter);
  }

  /**
   * About the bytes of a namespace's levels in a response's JSON: each level quoted, escaped and
   * followed by a comma.
   */
  static long jsonBytes(Namespace namespace) {
    long bytes = 2;
    for (String level : namespace.levels()) {
      bytes += jsonBytes(level) + 1;
    }
    return bytes;
  }

  /**
   * The bytes of {@code text} as a quoted JSON string, at most: a control character, quote or
   * backslash counted as a six-byte escape, so the estimate never needs the text encoded.
   */
  static long jsonBytes(String text) {
    long bytes = 2;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      bytes += c < 0x20 || c == '"' || c == '\\' ? 6 : c < 0x80 ? 1 : 3;
    }
    return bytes;
  }
}
