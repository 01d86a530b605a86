package dev.puddle.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Protects how a purge tells a table's own files from others': engines write {@code s3a://} and
 * {@code s3n://} URIs for the same objects as {@code s3://}, and a sibling whose name starts like
 * the table's is not inside it.
 */
class S3LocationTest {
  private static final S3Location TABLE =
      S3Location.parse("s3://warehouse/wh/sales/orders-1a2b").orElseThrow();

  @ParameterizedTest
  @ValueSource(strings = {"s3", "s3a", "s3n"})
  void theS3SchemesAddressTheSameObjects(String scheme) {
    S3Location file =
        S3Location.parse(scheme + "://warehouse/wh/sales/orders-1a2b/data/a.parquet").orElseThrow();

    assertThat(file).isEqualTo(new S3Location("warehouse", "wh/sales/orders-1a2b/data/a.parquet"));
    assertThat(file.uri()).isEqualTo("s3://warehouse/wh/sales/orders-1a2b/data/a.parquet");
    assertThat(file.isBelow(TABLE)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "s3://warehouse/wh/sales/orders-1a2b-other/data/a.parquet",
        "s3://warehouse/wh/sales/orders-1a2b",
        "s3://other-bucket/wh/sales/orders-1a2b/data/a.parquet",
        "s3://warehouse/wh/shared/a.parquet"
      })
  void aSiblingTheLocationItselfAnotherBucketOrElsewhereIsNotBelow(String uri) {
    assertThat(S3Location.parse(uri).orElseThrow().isBelow(TABLE)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"gs://bucket/a.parquet", "file:/tmp/a.parquet", "/tmp/a", "s3:///key"})
  void otherStoragesAreNotS3(String uri) {
    assertThat(S3Location.parse(uri)).isEmpty();
  }
}
