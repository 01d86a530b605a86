package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.access.AccessQuery;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Namespaces: listed page by page in name order, children only; property updates never lose a key;
 * a namespace is dropped only when empty and created only under a parent that exists.
 */
@ExtendWith(FreshDatabase.class)
class NamespacesTest {
  private Namespaces namespaces;
  private Warehouse warehouse;

  @BeforeEach
  void setUp(Database database) {
    namespaces = new Namespaces(database);
    warehouse = new Warehouses(database).ensure("r", "wh", "s3://bucket/wh", Map.of());
  }

  @Test
  void listingPagesThroughTheChildrenInNameOrderWithoutSkippingOrRepeating() {
    for (String name : List.of("d", "b", "e", "a", "c")) {
      namespaces.create(warehouse, Namespace.of(name), Map.of(), Change.NONE);
    }
    namespaces.create(warehouse, Namespace.of("b", "inner"), Map.of(), Change.NONE);

    Page<Namespace> first = namespaces.list(warehouse, Namespace.empty(), null, 2);
    // a name created after the first page, before the page token's name, is not on a later page
    namespaces.create(warehouse, Namespace.of("aa"), Map.of(), Change.NONE);
    Page<Namespace> second =
        namespaces.list(warehouse, Namespace.empty(), first.nextPageToken(), 2);
    Page<Namespace> third =
        namespaces.list(warehouse, Namespace.empty(), second.nextPageToken(), 2);

    assertThat(first.items()).containsExactly(Namespace.of("a"), Namespace.of("b"));
    assertThat(second.items()).containsExactly(Namespace.of("c"), Namespace.of("d"));
    assertThat(third.items()).containsExactly(Namespace.of("e"));
    assertThat(third.nextPageToken()).isNull();
    assertThat(namespaces.list(warehouse, Namespace.of("b"), null, 10).items())
        .containsExactly(Namespace.of("b", "inner"));
  }

  /**
   * The first page a namespace listing reads with the caller's access (V16) is the page the listing
   * reads on its own, of the top level and of a parent, from the start or a token and across the
   * chunks of 1,000 it is read in; and it says when the parent does not exist.
   */
  @Test
  void aPageReadWithTheAccessIsTheListingsOwnPage(Database database) {
    namespaces.create(warehouse, Namespace.of("top"), Map.of(), Change.NONE);
    namespaces.create(warehouse, Namespace.of("zz"), Map.of(), Change.NONE);
    IntStream.range(0, 1205)
        .forEach(
            i ->
                namespaces.create(
                    warehouse,
                    Namespace.of("top", String.format("n%04d", i)),
                    Map.of(),
                    Change.NONE));
    namespaces.create(warehouse, Namespace.of("top", "n0001", "deeper"), Map.of(), Change.NONE);
    AccessQuery access = new AccessQuery(database);
    Caller caller = Caller.withAllRoles("r", "anyone");

    for (Namespace parent : List.of(Namespace.empty(), Namespace.of("top"))) {
      for (String token : Arrays.asList(null, Page.tokenAfter("n0998"), Page.tokenAfter("top"))) {
        for (int size : List.of(1, 1000, 1001, 10_000)) {
          Listing.Read read =
              access
                  .read(
                      caller,
                      warehouse.id(),
                      new Listing(warehouse.id(), parent, null, token, size))
                  .listed()
                  .orElseThrow();
          assertThat(read.exists()).isTrue();
          assertThat(read.names(parent).map(name -> Namespaces.child(parent, name)))
              .isEqualTo(namespaces.list(warehouse, parent, token, size));
        }
      }
    }
    assertThat(
            access
                .read(
                    caller,
                    warehouse.id(),
                    new Listing(warehouse.id(), Namespace.of("nowhere"), null, null, 10))
                .listed())
        .contains(new Listing.Read(false, null));
  }

  @Test
  void aFullLastPageHasNoNextToken() {
    namespaces.create(warehouse, Namespace.of("a"), Map.of(), Change.NONE);
    namespaces.create(warehouse, Namespace.of("b"), Map.of(), Change.NONE);

    assertThat(namespaces.list(warehouse, Namespace.empty(), null, 2).nextPageToken()).isNull();
  }

  @Test
  void concurrentPropertyUpdatesKeepEveryKey() throws Exception {
    Namespace namespace = Namespace.of("ns");
    namespaces.create(warehouse, namespace, Map.of("kept", "yes", "dropped", "soon"), Change.NONE);
    int writers = 8;

    List<Race.Outcome<Namespaces.PropertiesUpdate>> outcomes =
        Race.run(
            writers,
            i ->
                namespaces.updateProperties(
                    warehouse, namespace, Map.of("key" + i, "v"), Set.of("dropped"), Change.NONE));

    assertThat(outcomes).allMatch(outcome -> outcome.failure() == null);
    Map<String, String> expected = new HashMap<>(Map.of("kept", "yes"));
    IntStream.range(0, writers).forEach(i -> expected.put("key" + i, "v"));
    assertThat(namespaces.load(warehouse, namespace)).isEqualTo(expected);
  }

  @Test
  void anUpdateSaysWhatItRemovedAndWhatWasMissing() {
    Namespace namespace = Namespace.of("ns");
    namespaces.create(warehouse, namespace, Map.of("a", "1"), Change.NONE);

    Namespaces.PropertiesUpdate update =
        namespaces.updateProperties(
            warehouse, namespace, Map.of("b", "2"), Set.of("a", "zz"), Change.NONE);

    assertThat(update.updated()).containsExactly("b");
    assertThat(update.removed()).containsExactly("a");
    assertThat(update.missing()).containsExactly("zz");
    assertThat(namespaces.load(warehouse, namespace)).isEqualTo(Map.of("b", "2"));
  }

  @Test
  void namesAreUniqueAndAChildNeedsItsParent() {
    namespaces.create(warehouse, Namespace.of("ns"), Map.of(), Change.NONE);

    assertThatThrownBy(
            () -> namespaces.create(warehouse, Namespace.of("ns"), Map.of(), Change.NONE))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(
            () ->
                namespaces.create(warehouse, Namespace.of("none", "child"), Map.of(), Change.NONE))
        .isInstanceOf(NoSuchNamespaceException.class);
  }

  @Test
  void aNamespaceWithAChildIsNotDropped() {
    namespaces.create(warehouse, Namespace.of("ns"), Map.of(), Change.NONE);
    namespaces.create(warehouse, Namespace.of("ns", "child"), Map.of(), Change.NONE);

    assertThatThrownBy(() -> namespaces.drop(warehouse, Namespace.of("ns"), Change.NONE))
        .isInstanceOf(NamespaceNotEmptyException.class)
        .hasMessageContaining("1 child namespace");
    assertThat(namespaces.drop(warehouse, Namespace.of("ns", "child"), Change.NONE)).isTrue();
    assertThat(namespaces.drop(warehouse, Namespace.of("ns"), Change.NONE)).isTrue();
    assertThat(namespaces.drop(warehouse, Namespace.of("ns"), Change.NONE)).isFalse();
  }

  @Test
  void twoNamespacesCannotShareALocation() {
    namespaces.create(
        warehouse, Namespace.of("a"), Map.of(Namespaces.LOCATION, "s3://bucket/x/"), Change.NONE);

    assertThatThrownBy(
            () ->
                namespaces.create(
                    warehouse,
                    Namespace.of("b"),
                    Map.of(Namespaces.LOCATION, "s3://bucket/x"),
                    Change.NONE))
        .isInstanceOf(BadRequestException.class);
    assertThat(namespaces.location(warehouse, Namespace.of("a"))).isEqualTo("s3://bucket/x");
  }
}
