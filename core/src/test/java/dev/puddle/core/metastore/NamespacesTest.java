package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
