package dev.puddle.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.Warehouse;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

class VersionCacheTest {
  private static final Warehouse SALES =
      new Warehouse(1, "acme", "sales", "s3://lake/sales", Map.of());
  private static final Warehouse OPS = new Warehouse(2, "acme", "ops", "s3://lake/ops", Map.of());
  private static final TableIdentifier ORDERS = TableIdentifier.of("db", "orders");
  private static final TableIdentifier ITEMS = TableIdentifier.of("db", "items");

  @Test
  void anEntryStandsOnlyForTheLocationItWasKeptFor() {
    VersionCache<String> cache = new VersionCache<>(100);
    cache.put(SALES, ORDERS, "s3://lake/sales/orders/metadata/1.json", "v1", 10);

    VersionCache.Entry<String> entry = cache.get(SALES, ORDERS).orElseThrow();

    assertThat(entry.standsFor(row("s3://lake/sales/orders/metadata/1.json"))).isTrue();
    assertThat(entry.standsFor(row("s3://lake/sales/orders/metadata/2.json"))).isFalse();
    assertThat(cache.get(OPS, ORDERS)).as("another warehouse's table of that name").isEmpty();
  }

  @Test
  void aNewVersionReplacesTheOldAndItsWeight() {
    VersionCache<String> cache = new VersionCache<>(100);
    cache.put(SALES, ORDERS, "1.json", "v1", 60);
    cache.put(SALES, ORDERS, "2.json", "v2", 60);
    cache.put(SALES, ITEMS, "1.json", "items", 40);

    assertThat(cache.get(SALES, ORDERS).orElseThrow().value()).isEqualTo("v2");
    assertThat(cache.get(SALES, ITEMS)).isPresent();
  }

  @Test
  void theLeastRecentlyUsedGoFirstWhenTheWeightIsExceeded() {
    VersionCache<String> cache = new VersionCache<>(100);
    cache.put(SALES, ORDERS, "1.json", "orders", 40);
    cache.put(SALES, ITEMS, "1.json", "items", 40);
    cache.get(SALES, ORDERS); // used since: items is now the eldest

    cache.put(OPS, ORDERS, "1.json", "ops orders", 40);

    assertThat(cache.get(SALES, ITEMS)).isEmpty();
    assertThat(cache.get(SALES, ORDERS)).isPresent();
    assertThat(cache.get(OPS, ORDERS)).isPresent();
  }

  @Test
  void aValueHeavierThanTheWholeCacheIsNotKept() {
    VersionCache<String> cache = new VersionCache<>(100);
    cache.put(SALES, ORDERS, "1.json", "small", 10);

    cache.put(SALES, ORDERS, "2.json", "huge", 101);

    assertThat(cache.get(SALES, ORDERS)).as("nor the version it replaced").isEmpty();
  }

  private static CatalogObject row(String metadataLocation) {
    return new CatalogObject(
        UUID.randomUUID(),
        ORDERS,
        Kind.TABLE,
        "s3://lake/sales/orders",
        true,
        metadataLocation,
        null);
  }
}
