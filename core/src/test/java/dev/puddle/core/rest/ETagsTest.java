package dev.puddle.core.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Protects conditional table loads: a tag changes exactly when the response would, and {@code
 * If-None-Match} is compared as RFC 9110 says (weak comparison, lists, {@code *}), so an engine
 * that sends back the tag it got receives a 304.
 */
class ETagsTest {
  private static final String LOCATION = "s3://wh/sales/orders-1/metadata/00001-a.metadata.json";

  @Test
  void aTagIsAQuotedStrongTag() {
    assertThat(ETags.of(LOCATION, "all")).matches("\"[0-9a-f]{32}\"");
  }

  @Test
  void aTagChangesExactlyWhenTheResponseWould() {
    assertThat(ETags.of(LOCATION, "all")).isEqualTo(ETags.of(LOCATION, "all"));
    assertThat(ETags.of(LOCATION, "all")).isNotEqualTo(ETags.of(LOCATION, "refs"));
    assertThat(ETags.of(LOCATION, "all"))
        .isNotEqualTo(ETags.of(LOCATION.replace("00001", "00002"), "all"));
  }

  @Test
  void theTagAsSentMatches() {
    String etag = ETags.of(LOCATION, "all");

    assertThat(ETags.matches(etag, etag)).isTrue();
  }

  @Test
  void aWeakTagMatches() {
    String etag = ETags.of(LOCATION, "all");

    assertThat(ETags.matches("W/" + etag, etag)).isTrue();
  }

  @Test
  void aListMatchesWhenAnyMemberDoes() {
    String etag = ETags.of(LOCATION, "all");
    String other = ETags.of(LOCATION, "refs");

    assertThat(ETags.matches(other + ", W/" + etag, etag)).isTrue();
    assertThat(ETags.matches(other + "," + etag, etag)).isTrue();
    assertThat(ETags.matches(other + ", W/" + other, etag)).isFalse();
  }

  @Test
  void aStarMatchesAnyTag() {
    assertThat(ETags.matches("*", ETags.of(LOCATION, "all"))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "\"\"", "W/\"\"", "\"0123456789abcdef0123456789abcdef\""})
  void otherTagsDoNotMatch(String ifNoneMatch) {
    assertThat(ETags.matches(ifNoneMatch, ETags.of(LOCATION, "all"))).isFalse();
  }

  @Test
  void noHeaderNeverMatches() {
    assertThat(ETags.matches(null, ETags.of(LOCATION, "all"))).isFalse();
  }
}
