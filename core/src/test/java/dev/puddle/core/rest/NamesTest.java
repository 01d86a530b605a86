package dev.puddle.core.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Protects how names travel in request paths: both the raw and the {@code %1F}-encoded namespace
 * separator are accepted, {@code +} is a space, and every name that can be created can also be
 * addressed, because anything that could not be is refused at creation with a 400.
 */
class NamesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {"sales\u001feu\u001fberlin", "sales%1Feu%1Fberlin", "sales%1feu\u001fberlin"})
  void bothSeparatorsSplitLevels(String decoded) {
    assertThat(Names.namespace(decoded)).isEqualTo(Namespace.of("sales", "eu", "berlin"));
  }

  @Test
  void aSingleLevelIsOneLevel() {
    assertThat(Names.namespace("sales")).isEqualTo(Namespace.of("sales"));
  }

  @Test
  void aMissingNamespaceIsTheEmptyOne() {
    assertThat(Names.namespace(null)).isEqualTo(Namespace.empty());
    assertThat(Names.namespace("")).isEqualTo(Namespace.empty());
  }

  @Test
  void plusIsASpace() {
    assertThat(Names.namespace("north+america\u001fsales+ops"))
        .isEqualTo(Namespace.of("north america", "sales ops"));
    assertThat(Names.segment("daily+revenue")).isEqualTo("daily revenue");
  }

  /**
   * Iceberg clients encode names with {@link RESTUtil}; API Gateway then decodes every {@code %XX}
   * but leaves {@code +} alone. Whatever can be created must come back unchanged.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {"orders", "daily revenue", "Umsätze", "50%_off", "a?b#c&d=e", "über näme"})
  void everyCreatableNameSurvivesClientEncodingAndGatewayDecoding(String name) {
    Namespace namespace = Namespace.of("sales", name);
    TableIdentifier table = TableIdentifier.of(namespace, name);
    Names.checkCreatable(namespace);
    Names.checkCreatable(table);

    String namespaceInPath =
        gatewayDecode(RESTUtil.encodeNamespace(namespace, Names.SEPARATOR_ENCODED));
    String nameInPath = gatewayDecode(RESTUtil.encodeString(name));

    assertThat(Names.namespace(namespaceInPath)).isEqualTo(namespace);
    assertThat(Names.segment(nameInPath)).isEqualTo(name);
  }

  @Test
  void creatableNamesPass() {
    assertThatCode(() -> Names.checkCreatable(Namespace.of("sales", "eu")))
        .doesNotThrowAnyException();
    assertThatCode(() -> Names.checkCreatable(TableIdentifier.of("sales", "daily orders")))
        .doesNotThrowAnyException();
  }

  @Test
  void theEmptyNamespaceCannotBeCreated() {
    assertThatThrownBy(() -> Names.checkCreatable(Namespace.empty()))
        .isInstanceOf(BadRequestException.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "a/b",
        "a+b",
        "tab\tbed",
        "line\nbreak",
        "unit\u001fsep",
        "del\u007f",
        "eu%1Fwest"
      })
  void unaddressableNamespaceLevelsAreRefused(String level) {
    assertThatThrownBy(() -> Names.checkCreatable(Namespace.of("sales", level)))
        .isInstanceOf(BadRequestException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"a/b", "a+b", "tab\tbed", "line\nbreak", "unit\u001fsep", "bell\u0007"})
  void unaddressableTableNamesAreRefused(String name) {
    assertThatThrownBy(() -> Names.checkCreatable(TableIdentifier.of("sales", name)))
        .isInstanceOf(BadRequestException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a/b", "a+b", "ctl\u0001"})
  void aTableInAnUnaddressableNamespaceIsRefused(String level) {
    assertThatThrownBy(() -> Names.checkCreatable(TableIdentifier.of(Namespace.of(level), "t")))
        .isInstanceOf(BadRequestException.class);
  }

  /** Percent-decodes as API Gateway decodes paths: {@code %XX} only, {@code +} stays. */
  private static String gatewayDecode(String path) {
    return URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
