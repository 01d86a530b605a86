package dev.puddle.core.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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

  @ParameterizedTest
  @ValueSource(strings = {".", "..", "nul\u0000"})
  void namesThatPathsCannotCarryAreRefused(String name) {
    assertThatThrownBy(() -> Names.checkCreatable(TableIdentifier.of("sales", name)))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void aLevelOrNameIsAtMost255BytesOfUtf8() {
    String most = "é".repeat(NameLimits.MAX_NAME_BYTES / 2) + "x";
    assertThatCode(() -> Names.checkCreatable(Namespace.of(most))).doesNotThrowAnyException();
    assertThatThrownBy(() -> Names.checkCreatable(Namespace.of(most + "x")))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("256 bytes");
    assertThatThrownBy(() -> Names.checkCreatable(TableIdentifier.of("sales", most + "x")))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void aNamespaceHasAtMost16Levels() {
    String[] levels = new String[NameLimits.MAX_LEVELS];
    Arrays.fill(levels, "l");
    assertThatCode(() -> Names.checkCreatable(Namespace.of(levels))).doesNotThrowAnyException();
    String[] more = Arrays.copyOf(levels, levels.length + 1);
    more[levels.length] = "l";
    assertThatThrownBy(() -> Names.checkCreatable(Namespace.of(more)))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> Names.checkCreatable(TableIdentifier.of(Namespace.of(more), "t")))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void aNamespaceAndNameTakeAtMost768CharactersOfAPathOnceEncoded() {
    // 3 levels of 200 and a name of 163: 600 + 2 separators of 3 + 1 + 161 = 768
    Namespace namespace = Namespace.of("a".repeat(200), "b".repeat(200), "c".repeat(200));
    assertThatCode(() -> Names.checkCreatable(TableIdentifier.of(namespace, "t".repeat(161))))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> Names.checkCreatable(TableIdentifier.of(namespace, "t".repeat(162))))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("769 characters");
    // every byte of a non-ASCII name takes three characters
    assertThatThrownBy(() -> Names.checkCreatable(Namespace.of("é".repeat(127), "é".repeat(127))))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void aRefusalQuotesAVeryLongNameShortened() {
    assertThatThrownBy(() -> Names.checkCreatable(Namespace.of("n".repeat(10_000))))
        .isInstanceOf(BadRequestException.class)
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
  }

  /** Percent-decodes as API Gateway decodes paths: {@code %XX} only, {@code +} stays. */
  private static String gatewayDecode(String path) {
    return URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
