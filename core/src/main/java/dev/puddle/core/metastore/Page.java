package dev.puddle.core.metastore;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * One page of a listing and the token of the next, if any. Tokens are opaque to clients: the key of
 * the last row of the page (a name, or a purge job's creation time and id), so a page never skips
 * or repeats rows while others are created. Every listing of the store makes and reads its tokens
 * here.
 */
public record Page<T>(List<T> items, String nextPageToken) {
  public Page {
    // Iceberg's response builders probe for nulls, which immutable List.copyOf rejects
    items = Collections.unmodifiableList(new ArrayList<>(items));
  }

  /** This page with each item made into {@code item}'s result, and the same token. */
  public <R> Page<R> map(Function<T, R> item) {
    return new Page<>(items.stream().map(item).toList(), nextPageToken);
  }

  /**
   * Fetches pages from {@code firstToken} on and keeps their items while their {@code bytesOf} adds
   * up to at most {@code budget} (the first item always): the result's token is {@code tokenAfter}
   * its last item when the budget ends it, null after the last page. Without a budget ({@link
   * Long#MAX_VALUE}), every page up to the last.
   */
  public static <T> Page<T> fetchWithin(
      Function<String, Page<T>> source,
      String firstToken,
      long budget,
      ToLongFunction<T> bytesOf,
      Function<T, String> tokenAfter) {
    List<T> items = new ArrayList<>();
    long bytes = 0;
    String token = firstToken;
    do {
      Page<T> page = source.apply(token);
      int fitting = 0;
      for (T item : page.items()) {
        bytes += bytesOf.applyAsLong(item);
        if (bytes > budget && (fitting > 0 || !items.isEmpty())) {
          items.addAll(page.items().subList(0, fitting));
          return new Page<>(items, tokenAfter.apply(items.getLast()));
        }
        fitting++;
      }
      if (items.isEmpty() && page.nextPageToken() == null) {
        // one page, all of it within the budget: the listing's usual case, kept as it came
        return page;
      }
      items.addAll(page.items());
      token = page.nextPageToken();
    } while (token != null);
    return new Page<>(items, null);
  }

  /**
   * The page of {@code rows}, fetched with a limit of {@code pageSize + 1}: one row more than the
   * page says whether another page follows, whose token is the {@code key} of this page's last row.
   */
  static <T> Page<T> of(List<T> rows, int pageSize, Function<T, String> key) {
    if (rows.size() <= pageSize) {
      return new Page<>(rows, null);
    }
    List<T> items = rows.subList(0, pageSize);
    return new Page<>(items, tokenAfter(key.apply(items.get(pageSize - 1))));
  }

  /** The token of the page that starts after the row of {@code key}. */
  static String tokenAfter(String key) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(key.getBytes(StandardCharsets.UTF_8));
  }

  /** The key of the row the page starts after, or null for the first page. */
  static String keyAfter(String pageToken) {
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
