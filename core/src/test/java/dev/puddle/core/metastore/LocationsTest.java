package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Protects the location arithmetic behind the no-overlap rule: trailing slashes never make two
 * locations differ, a sibling that shares a name prefix is not inside, and the ancestors a location
 * is checked against stop at the bucket; and the rule itself, on a database: no table or view that
 * owns its location lies inside, contains or equals another's, or contains a namespace's.
 */
@ExtendWith(FreshDatabase.class)
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

  /** A warehouse with namespace {@code ns} at s3://bucket/wh/ns and table {@code ns.t}. */
  private record Store(CatalogObjects objects, Namespaces namespaces, Warehouse warehouse) {
    static Store of(Database database) {
      Warehouse warehouse = new Warehouses(database).ensure("r", "wh", "s3://bucket/wh", Map.of());
      Namespaces namespaces = new Namespaces(database);
      namespaces.create(
          warehouse,
          Namespace.of("ns"),
          Map.of(Namespaces.LOCATION, "s3://bucket/wh/ns"),
          Change.NONE);
      Store store = new Store(new CatalogObjects(database), namespaces, warehouse);
      store.create("t", "s3://bucket/wh/ns/t", true);
      return store;
    }

    CatalogObject create(String name, String location, boolean ownsLocation) {
      CatalogObject object =
          new CatalogObject(
              UUID.randomUUID(),
              TableIdentifier.of("ns", name),
              CatalogObject.Kind.TABLE,
              location,
              ownsLocation,
              location + "/metadata/v1.json",
              "{}");
      objects.create(warehouse, object, TestEvents.of(warehouse, object), Change.NONE);
      return object;
    }
  }

  @ParameterizedTest
  @CsvSource({
    "s3://bucket/wh/ns/t, equals",
    "s3://bucket/wh/ns/t/, equals",
    "s3://bucket/wh/ns/t/inner, lies inside",
    "s3://bucket/wh/ns, contains the namespace's",
    "s3://bucket/wh, contains"
  })
  void anOwnedLocationMayNotOverlapAnother(String location, String how, Database database) {
    Store store = Store.of(database);

    assertThatThrownBy(() -> store.create("other", location, true))
        .as("a location that %s", how)
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("overlaps");
  }

  @Test
  void aSiblingSharingANamePrefixAndARegisteredObjectDoNotOverlap(Database database) {
    Store store = Store.of(database);

    store.create("t2", "s3://bucket/wh/ns/t2", true);
    store.create("t_", "s3://bucket/wh/ns/t_", true);
    store.create("registered", "s3://bucket/wh/ns/t/registered", false);

    assertThat(
            store
                .objects()
                .list(store.warehouse(), Namespace.of("ns"), CatalogObject.Kind.TABLE, null, 10)
                .items())
        .hasSize(4);
  }

  @Test
  void ofConcurrentOverlappingCreatesAtMostOneSucceeds(Database database) throws Exception {
    Store store = Store.of(database);

    // each location lies inside the one before: any two overlap
    List<Race.Outcome<CatalogObject>> outcomes =
        Race.run(4, i -> store.create("p" + i, "s3://bucket/wh/ns/p" + "/q".repeat(i), true));

    assertThat(outcomes).filteredOn(outcome -> outcome.failure() == null).hasSize(1);
    assertThat(outcomes)
        .filteredOn(outcome -> outcome.failure() != null)
        .allMatch(outcome -> outcome.failure() instanceof BadRequestException);
  }

  @Test
  void aNamespaceLocationMayNotLieInsideAnObject(Database database) {
    Store store = Store.of(database);

    assertThatThrownBy(
            () ->
                store
                    .namespaces()
                    .create(
                        store.warehouse(),
                        Namespace.of("inner"),
                        Map.of(Namespaces.LOCATION, "s3://bucket/wh/ns/t/inner"),
                        Change.NONE))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("overlaps");
  }

  @Test
  void aCommitMayNotMoveALocationOntoAnother(Database database) {
    Store store = Store.of(database);
    CatalogObject u = store.create("u", "s3://bucket/wh/ns/u", true);

    assertThatThrownBy(
            () ->
                store
                    .objects()
                    .swap(
                        store.warehouse(),
                        new CatalogObjects.Swap(
                            u,
                            "s3://bucket/wh/ns/t/u",
                            "m2.json",
                            "{}",
                            TestEvents.of(store.warehouse(), u)),
                        Change.NONE))
        .isInstanceOf(BadRequestException.class);
    assertThat(
            store
                .objects()
                .swap(
                    store.warehouse(),
                    new CatalogObjects.Swap(
                        u,
                        "s3://bucket/wh/ns/u2",
                        "m2.json",
                        "{}",
                        TestEvents.of(store.warehouse(), u)),
                    Change.NONE))
        .isTrue();
  }
}
