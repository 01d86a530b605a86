package dev.puddle.core.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.contract.Route;
import dev.puddle.core.api.Request;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Protects listing pagination: clients that send no paging parameters get everything, sizes are
 * capped, and a size that is not a positive integer is the client's error (400), never a 500.
 */
class PagingTest {

  @Test
  void noParametersMeansEverythingUnpaginated() {
    Paging paging = Paging.of(request(null, null));

    assertThat(paging.paginated()).isFalse();
    assertThat(paging.pageToken()).isNull();
  }

  @Test
  void aPageSizeStartsPagination() {
    assertThat(Paging.of(request(null, "25"))).isEqualTo(new Paging(null, 25, true));
  }

  @Test
  void aTokenAloneContinuesByTheServersDefault() {
    assertThat(Paging.of(request("abc", null)))
        .isEqualTo(new Paging("abc", Paging.MAX_PAGE_SIZE, false));
  }

  @Test
  void theSizeEstimateOfAJsonStringIsNeverBelowItsEncoding() throws Exception {
    for (String text : List.of("orders", "ünïcode", "quote\"back\\slash", "tab\tnul\u0000", "日本")) {
      assertThat(Paging.jsonBytes(text))
          .as(text)
          .isGreaterThanOrEqualTo(
              RestJson.mapper().writeValueAsString(text).getBytes(StandardCharsets.UTF_8).length);
    }
  }

  @Test
  void largePagesAreCapped() {
    assertThat(Paging.of(request(null, "100000")).pageSize()).isEqualTo(Paging.MAX_PAGE_SIZE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1", "abc", "", " 5", "1.5", "2147483648", "0x10"})
  void badSizesAreBadRequests(String size) {
    assertThatThrownBy(() -> Paging.of(request(null, size)))
        .isInstanceOf(BadRequestException.class)
        .satisfies(e -> assertThat(ErrorMapper.toResponse(e).status()).isEqualTo(400));
  }

  private static Request request(String pageToken, String pageSize) {
    Map<String, String> query = new HashMap<>();
    if (pageToken != null) {
      query.put("pageToken", pageToken);
    }
    if (pageSize != null) {
      query.put("pageSize", pageSize);
    }
    return new Request(Route.LIST_NAMESPACES, Map.of("prefix", "wh"), query, Map.of(), null);
  }
}
