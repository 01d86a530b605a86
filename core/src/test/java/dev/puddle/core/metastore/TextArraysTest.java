package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The text form of a {@code text[]} as {@code array_out} writes it reads back to its elements;
 * anything else fails rather than listing wrong names. CatalogObjectsTest reads PostgreSQL's own.
 */
class TextArraysTest {
  private static List<String> read(String text) throws SQLException {
    List<String> elements = new ArrayList<>();
    TextArrays.addElements(text, elements);
    return elements;
  }

  @Test
  void readsPlainQuotedAndEscapedElements() throws SQLException {
    assertThat(read("{}")).isEmpty();
    assertThat(read("{a}")).containsExactly("a");
    assertThat(read("{a,b_c,ü}")).containsExactly("a", "b_c", "ü");
    assertThat(read("{\"\",\"NULL\",\"a b\",\"x,y\",\"{z}\"}"))
        .containsExactly("", "NULL", "a b", "x,y", "{z}");
    assertThat(read("{\"q\\\"r\",\"s\\\\t\",\"\\\\\",\"\\\"\\\"\"}"))
        .containsExactly("q\"r", "s\\t", "\\", "\"\"");
  }

  @Test
  void failsOnWhatArrayOutDoesNotWrite() {
    for (String text :
        List.of(
            "", "{", "a,b", "[0:1]={a,b}", "{a,NULL}", "{\"a}", "{\"a\"b}", "{a}}", "{{a},{b}}x")) {
      assertThatThrownBy(() -> read(text)).as(text).isInstanceOf(SQLException.class);
    }
  }
}
