package dev.puddle.core.access;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

/** How far a privilege held on a securable reaches: down the namespace tree, never sideways. */
class SecurableTest {
  private static final Securable SALES = Securable.namespace(Namespace.of("sales"));
  private static final Securable SALES_EU = Securable.namespace(Namespace.of("sales", "eu"));
  private static final Securable ORDERS =
      Securable.table(TableIdentifier.of(Namespace.of("sales", "eu"), "orders"));

  @Test
  void theCatalogReachesEverything() {
    assertThat(Securable.catalog().reaches(SALES)).isTrue();
    assertThat(Securable.catalog().reaches(ORDERS)).isTrue();
  }

  @Test
  void aNamespaceReachesWhatIsNestedInItOnly() {
    assertThat(SALES.reaches(SALES_EU)).isTrue();
    assertThat(SALES.reaches(ORDERS)).isTrue();
    assertThat(SALES_EU.reaches(SALES)).isFalse();
    assertThat(SALES.reaches(Securable.namespace(Namespace.of("salesforce")))).isFalse();
    assertThat(SALES.reaches(Securable.catalog())).isFalse();
  }

  @Test
  void aTableReachesItselfOnlyAndAViewOfTheSameNameIsAnotherSecurable() {
    assertThat(ORDERS.reaches(ORDERS)).isTrue();
    assertThat(ORDERS.reaches(SALES_EU)).isFalse();
    assertThat(
            ORDERS.reaches(
                Securable.view(TableIdentifier.of(Namespace.of("sales", "eu"), "orders"))))
        .isFalse();
  }

  @Test
  void theNamespacesThatLeadToAGrantAreOnItsPath() {
    assertThat(SALES.onPathOf(ORDERS)).isTrue();
    assertThat(ORDERS.onPathOf(SALES)).isTrue();
    assertThat(ORDERS.onPathOf(Securable.namespace(Namespace.of("hr")))).isFalse();
  }
}
