package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Protects the location arithmetic behind the no-overlap rule: trailing slashes never make two
 * locations differ, a sibling that shares a name prefix is not inside, and the ancestors a location
 * is checked against stop at the bucket.
 */
class LocationsTest {

  @ParameterizedTest
  @CsvSource({
    "s3://bucket/wh/t, s3://bucket/wh/t",
    "s3://bucket/wh/t/, s3://bucket/wh/t",
    "s3://bucket/wh/t///, s3://bucket/wh/t",
    "'  s3://bucket/wh/t/ ', s3://bucket/wh/t",
    "s3://, s3://",
    "file:///tmp/wh/, file:///tmp/wh"
  })
  void normalizeDropsTrailingSlashesButKeepsTheScheme(String location, String normalized) {
    assertThat(Locations.normalize(location)).isEqualTo(normalized);
  }

  @ParameterizedTest
  @CsvSource({
    "s3://b/wh/t, s3://b/wh/t, true",
    "s3://b/wh/t/, s3://b/wh/t, true",
    "s3://b/wh/t, s3://b/wh/t/, true",
    "s3://b/wh/t/data/f.parquet, s3://b/wh/t, true",
    "s3://b/wh/t2, s3://b/wh/t, false",
    "s3://b/wh/tx/data, s3://b/wh/t, false",
    "s3://b/wh, s3://b/wh/t, false",
    "s3://other/wh/t, s3://b/wh/t, false"
  })
  void isWithinMeansEqualOrBelow(String location, String base, boolean within) {
    assertThat(Locations.isWithin(location, base)).isEqualTo(within);
  }

  @Test
  void ancestorsRunFromTheLocationUpToTheBucket() {
    assertThat(Locations.ancestors("s3://bucket/wh/sales/orders"))
        .containsExactly(
            "s3://bucket/wh/sales/orders", "s3://bucket/wh/sales", "s3://bucket/wh", "s3://bucket");
  }

  @Test
  void aBucketIsItsOwnOnlyAncestor() {
    assertThat(Locations.ancestors("s3://bucket")).containsExactly("s3://bucket");
  }

  @Test
  void ancestorsOfAFileUriStopAtTheRoot() {
    assertThat(Locations.ancestors("file:///tmp/wh/t"))
        .containsExactly("file:///tmp/wh/t", "file:///tmp/wh", "file:///tmp");
  }
}
