package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;

/** Page tokens: opaque, round-tripping any key, and a next page exactly when rows remain. */
class PageTest {

  @Test
  void aTokenNamesTheKeyThePageStartsAfter() {
    for (String key : List.of("orders", "ünïcode/ key with spaces", "2026-12-01T00:00:00Z " + 1)) {
      assertThat(Page.keyAfter(Page.tokenAfter(key))).isEqualTo(key);
    }
    assertThat(Page.tokenAfter("a/b+c")).doesNotContain("/", "+", "=");
  }

  @Test
  void noTokenIsTheFirstPage() {
    assertThat(Page.keyAfter(null)).isNull();
    assertThat(Page.keyAfter("")).isNull();
  }

  @Test
  void aTokenThatIsNotBase64IsABadRequest() {
    assertThatThrownBy(() -> Page.keyAfter("not base64!"))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("Invalid page token");
  }

  @Test
  void onlyTheExtraRowMakesANextPage() {
    assertThat(Page.of(List.of("a", "b"), 2, Function.identity()).nextPageToken()).isNull();
    Page<String> page = Page.of(List.of("a", "b", "c"), 2, Function.identity());
    assertThat(page.items()).containsExactly("a", "b");
    assertThat(Page.keyAfter(page.nextPageToken())).isEqualTo("b");
  }

  @Test
  void fetchWithoutABudgetFollowsTokensToTheLastPage() {
    List<String> rows = List.of("a", "b", "c", "d", "e");
    List<String> tokens = new ArrayList<>();
    Function<String, Page<String>> pages = pagesOfTwo(rows);
    Function<String, Page<String>> source =
        token -> {
          tokens.add(token);
          return pages.apply(token);
        };

    assertThat(Page.fetchWithin(source, null, Long.MAX_VALUE, item -> 0, item -> null))
        .isEqualTo(new Page<>(rows, null));
    // each page read once, from the token the one before it gave
    assertThat(tokens).containsExactly(null, Page.tokenAfter("b"), Page.tokenAfter("d"));
  }

  @Test
  void fetchWithinStopsWhereTheBudgetEndsAndResumesAfterTheLastItem() {
    List<String> rows = List.of("a", "bb", "ccc", "dddd", "eeeee");
    Function<String, Page<String>> source = pagesOfTwo(rows);

    Page<String> first = Page.fetchWithin(source, null, 6, String::length, Page::tokenAfter);
    assertThat(first.items()).containsExactly("a", "bb", "ccc");
    Page<String> second =
        Page.fetchWithin(source, first.nextPageToken(), 6, String::length, Page::tokenAfter);
    // an item larger than the budget still makes a page of its own, so every listing ends
    assertThat(second.items()).containsExactly("dddd");
    Page<String> last =
        Page.fetchWithin(source, second.nextPageToken(), 6, String::length, Page::tokenAfter);
    assertThat(last).isEqualTo(new Page<>(List.of("eeeee"), null));
    assertThat(Page.fetchWithin(source, null, 100, String::length, Page::tokenAfter))
        .isEqualTo(new Page<>(rows, null));
  }

  /** Pages of two of {@code rows}, as the store makes them (a limit of three). */
  private static Function<String, Page<String>> pagesOfTwo(List<String> rows) {
    return token -> {
      String after = Page.keyAfter(token);
      List<String> rest = new ArrayList<>();
      for (String row : rows) {
        if (after == null || row.compareTo(after) > 0) {
          rest.add(row);
        }
      }
      return Page.of(rest.subList(0, Math.min(3, rest.size())), 2, Function.identity());
    };
  }
}
