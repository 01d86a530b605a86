package dev.puddle.core.rest;

import dev.puddle.core.api.Gzip;
import dev.puddle.core.api.Response;
import dev.puddle.core.metastore.Page;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.RESTResponse;

/**
 * The responses of the catalog listings this execution environment answered last, kept with their
 * gzip, so that a listing whose page is the one answered before (the same entries, the same token)
 * is not written to JSON and compressed again: 2,000 tables cost some 170 us of JSON and 90 us of
 * gzip. Every request still reads its page, with the caller's access, and filters it to what the
 * caller may see; only the bytes of a page that came out equal are reused, and those depend on
 * nothing but the page. One response per listing asked (endpoint, warehouse, parent, token and page
 * size); safe to lose; bounded by weight (the JSON's characters and its gzip's bytes), least
 * recently used out first; thread-safe.
 */
final class ListingAnswers {
  /** The weight kept in all: some 50 listings of 2,000 tables. */
  static final long MAX_WEIGHT = 8L * 1024 * 1024;

  /** A listing as asked: the same question gets the same page unless the namespace changed. */
  record Question(String listing, long warehouseId, Namespace parent, Paging paging) {}

  private record Answer(List<?> items, String nextPageToken, Response response, long weight) {}

  private final long maxWeight;
  private final Map<Question, Answer> answers = new LinkedHashMap<>(16, 0.75f, true);
  private long weight;

  ListingAnswers(long maxWeight) {
    this.maxWeight = maxWeight;
  }

  ListingAnswers() {
    this(MAX_WEIGHT);
  }

  /**
   * The 200 response of {@code page}, the answer to {@code question}: the kept one if it answered
   * an equal page, else {@code response}'s JSON, then kept.
   */
  <T> Response answer(
      Question question, Page<T> page, Function<Page<T>, ? extends RESTResponse> response) {
    Answer kept;
    synchronized (this) {
      kept = answers.get(question);
    }
    if (kept != null
        && kept.items().equals(page.items())
        && Objects.equals(kept.nextPageToken(), page.nextPageToken())) {
      return kept.response();
    }
    String json = RestJson.write(response.apply(page));
    byte[] gzipped = Gzip.compress(json);
    Response answer = Response.json(200, json, gzipped);
    // the entries kept to compare with weigh about as much as their JSON again
    keep(
        question,
        new Answer(
            page.items(), page.nextPageToken(), answer, 2L * json.length() + gzipped.length));
    return answer;
  }

  private synchronized void keep(Question question, Answer answer) {
    Answer replaced = answers.remove(question);
    if (replaced != null) {
      weight -= replaced.weight();
    }
    if (answer.weight() > maxWeight) {
      return;
    }
    answers.put(question, answer);
    weight += answer.weight();
    var eldest = answers.entrySet().iterator();
    while (weight > maxWeight) {
      weight -= eldest.next().getValue().weight();
      eldest.remove();
    }
  }
}
