package dev.puddle.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a command prints on standard output: aligned columns for people, or JSON for scripts. Rows
 * are text only; a JSON answer is printed as the catalog sent it, indented.
 */
final class Printer {
  private final PrintWriter out;
  private final ConnectionOptions.Output format;

  Printer(PrintWriter out, ConnectionOptions.Output format) {
    this.out = out;
    this.format = format;
  }

  boolean json() {
    return format == ConnectionOptions.Output.JSON;
  }

  /** Rows under a header, each column as wide as its widest cell, two spaces apart. */
  void table(List<String> header, List<List<String>> rows) {
    int[] widths = new int[header.size()];
    List<List<String>> all = new ArrayList<>();
    all.add(header);
    all.addAll(rows);
    for (List<String> row : all) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], text(row.get(i)).length());
      }
    }
    for (List<String> row : all) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        String cell = text(row.get(i));
        line.append(cell);
        if (i < row.size() - 1) {
          line.append(" ".repeat(widths[i] - cell.length() + 2));
        }
      }
      out.println(line.toString().stripTrailing());
    }
    out.flush();
  }

  /** One object as two columns: field and value. */
  void fields(Map<String, String> fields) {
    table(
        List.of("FIELD", "VALUE"),
        fields.entrySet().stream().map(e -> List.of(e.getKey(), text(e.getValue()))).toList());
  }

  void json(JsonNode node) {
    try {
      out.println(CatalogClient.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    out.flush();
  }

  /** A line for people; nothing in JSON mode, where a command prints its answer or nothing. */
  void message(String format, Object... args) {
    if (!json()) {
      out.println(String.format(format, args));
      out.flush();
    }
  }

  /** {@code k=v, k2=v2}, sorted. */
  static String properties(JsonNode properties) {
    if (properties == null || !properties.isObject()) {
      return "";
    }
    List<String> pairs = new ArrayList<>();
    properties.properties().forEach(e -> pairs.add(e.getKey() + "=" + e.getValue().asText()));
    return pairs.stream().sorted().collect(Collectors.joining(", "));
  }

  /** A field's text: empty for missing and null, control characters shown as escapes. */
  static String text(JsonNode node, String field) {
    JsonNode value = node == null ? null : node.get(field);
    return value == null || value.isNull() ? "" : text(value.asText());
  }

  /**
   * One line of text: a name or message with a line break or other control character in it cannot
   * break a table or fake a line.
   */
  static String text(String value) {
    if (value == null) {
      return "";
    }
    StringBuilder result = new StringBuilder();
    value
        .codePoints()
        .forEach(
            c -> {
              if (Character.isISOControl(c)) {
                result.append(String.format("\\u%04x", c));
              } else {
                result.appendCodePoint(c);
              }
            });
    return result.toString();
  }
}
