package dev.puddle.core.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.api.Gzip;
import dev.puddle.core.api.Response;
import dev.puddle.core.metastore.Page;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.junit.jupiter.api.Test;

/**
 * A kept listing response is reused only for a page equal to the one it was written for, entries
 * and token alike; any other page gets its own JSON, and the kept weight stays within its bound.
 */
class ListingAnswersTest {
  private static final Namespace NS = Namespace.of("db");
  private static final Paging DEFAULT = new Paging(null, Paging.MAX_PAGE_SIZE, false);
  private static final ListingAnswers.Question QUESTION =
      new ListingAnswers.Question("table", 1, NS, DEFAULT);
  private static final Function<Page<TableIdentifier>, ListTablesResponse> RESPONSE =
      page ->
          ListTablesResponse.builder()
              .addAll(page.items())
              .nextPageToken(page.nextPageToken())
              .build();

  private static Page<TableIdentifier> page(String token, String... names) {
    return new Page<>(
        Arrays.stream(names).map(name -> TableIdentifier.of(NS, name)).toList(), token);
  }

  @Test
  void anEqualPageGetsTheKeptResponseAndAnyOtherItsOwn() {
    ListingAnswers answers = new ListingAnswers();
    Response first = answers.answer(QUESTION, page(null, "a", "b"), RESPONSE);
    assertThat(first.body()).isEqualTo(RestJson.write(RESPONSE.apply(page(null, "a", "b"))));
    assertThat(Gzip.decompress(first.gzippedBody())).isEqualTo(first.body());

    // read again, equal: the same bytes, not written again
    assertThat(answers.answer(QUESTION, page(null, "a", "b"), RESPONSE)).isSameAs(first);

    // a table dropped, one created, the token changed: each its own JSON
    for (Page<TableIdentifier> other :
        List.of(page(null, "a"), page(null, "a", "b", "c"), page("YQ", "a", "b"))) {
      Response answer = answers.answer(QUESTION, other, RESPONSE);
      assertThat(answer.body()).isEqualTo(RestJson.write(RESPONSE.apply(other)));
    }
    // another question with the same page is answered with its own bytes, equal ones
    ListingAnswers.Question views = new ListingAnswers.Question("view", 1, NS, DEFAULT);
    assertThat(answers.answer(views, page(null, "a", "b"), RESPONSE).body())
        .isEqualTo(first.body());
  }

  @Test
  void theKeptWeightStaysWithinItsBound() {
    Response one = new ListingAnswers().answer(QUESTION, page(null, "a"), RESPONSE);
    long weight = 2L * one.body().length() + one.gzippedBody().length;
    ListingAnswers answers = new ListingAnswers(2 * weight);
    Response a = answers.answer(QUESTION, page(null, "a"), RESPONSE);
    ListingAnswers.Question q2 = new ListingAnswers.Question("table", 2, NS, DEFAULT);
    ListingAnswers.Question q3 = new ListingAnswers.Question("table", 3, NS, DEFAULT);
    answers.answer(q2, page(null, "a"), RESPONSE);
    answers.answer(q3, page(null, "a"), RESPONSE);
    // the least recently used, the first, went out to make room for the third
    assertThat(answers.answer(QUESTION, page(null, "a"), RESPONSE)).isNotSameAs(a);
  }
}
