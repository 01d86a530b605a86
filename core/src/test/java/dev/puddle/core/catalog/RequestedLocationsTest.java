package dev.puddle.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.metastore.Warehouse;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Requested locations: normalised, then refused unless clean, in the bucket, in the warehouse. */
class RequestedLocationsTest {
  private static final Warehouse WAREHOUSE =
      new Warehouse(1, "realm", "wh", "s3://bucket/wh", Map.of());

  @Test
  void aLocationIsNormalisedBeforeItIsChecked() {
    assertThat(RequestedLocations.check(WAREHOUSE, " s3://bucket/wh/ns/t// "))
        .isEqualTo("s3://bucket/wh/ns/t");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "s3://bucket/wh/../other",
        "s3://bucket/wh/./t",
        "s3://bucket/wh//t",
        "s3://bucket/wh/ns/..",
        "s3://other-bucket/wh/t",
        "s3a://bucket/wh/t",
        "file:///bucket/wh/t",
        "/bucket/wh/t",
        "s3://bucket/wh/t\u0000",
        "s3://bucket/_puddle/export/latest.json",
        "s3://bucket/_puddle",
        ""
      })
  void unsafeLocationsAreRefused(String location) {
    assertThatThrownBy(() -> RequestedLocations.check(WAREHOUSE, location))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void anOwnedObjectsLocationAndWritePathsMustLieInTheWarehouse() {
    assertThatCode(
            () ->
                RequestedLocations.checkObject(
                    WAREHOUSE,
                    true,
                    "s3://bucket/wh/t",
                    Map.of("write.data.path", "s3://bucket/wh/d")))
        .doesNotThrowAnyException();
    assertThatThrownBy(
            () ->
                RequestedLocations.checkObject(
                    WAREHOUSE,
                    true,
                    "s3://bucket/wh/t",
                    Map.of("write.metadata.path", "s3://bucket/elsewhere")))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("outside the warehouse");
  }

  @Test
  void aRegisteredObjectMayLieAnywhereInTheBucket() {
    assertThatCode(
            () ->
                RequestedLocations.checkObject(WAREHOUSE, false, "s3://bucket/elsewhere", Map.of()))
        .doesNotThrowAnyException();
    assertThatThrownBy(
            () ->
                RequestedLocations.checkObject(WAREHOUSE, false, "s3://other/elsewhere", Map.of()))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void noObjectMayLieInTheBucketsControlFolderWhereTheCatalogExportLives() {
    Warehouse atTheRoot = new Warehouse(1, "realm", "root", "s3://bucket", Map.of());
    assertThatThrownBy(
            () ->
                RequestedLocations.checkObject(
                    atTheRoot, true, "s3://bucket/_puddle/export", Map.of()))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("_puddle/ folder is the catalog's own");
    assertThatThrownBy(
            () ->
                RequestedLocations.checkObject(
                    WAREHOUSE, false, "s3://bucket/_puddle/export/t", Map.of()))
        .isInstanceOf(BadRequestException.class);
    assertThatCode(() -> RequestedLocations.check(atTheRoot, "s3://bucket/_puddles/t"))
        .doesNotThrowAnyException();
  }

  @Test
  void aCreateWithoutALocationLeavesTheCatalogToPickOne() {
    assertThatCode(() -> RequestedLocations.checkCreate(WAREHOUSE, null, Map.of()))
        .doesNotThrowAnyException();
    assertThatThrownBy(
            () -> RequestedLocations.checkCreate(WAREHOUSE, "s3://bucket/wh/../x", Map.of()))
        .isInstanceOf(BadRequestException.class);
  }
}
