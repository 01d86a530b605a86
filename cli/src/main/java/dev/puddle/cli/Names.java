package dev.puddle.cli;

import java.util.Arrays;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/** Namespace and table names as users write them: levels separated by dots. */
final class Names {
  private Names() {}

  static List<String> levels(String dotted) {
    if (dotted == null || dotted.isEmpty()) {
      throw new IllegalArgumentException("Missing name");
    }
    List<String> levels = Arrays.asList(dotted.split("\\.", -1));
    if (levels.stream().anyMatch(String::isEmpty)) {
      throw new IllegalArgumentException("Invalid name '" + dotted + "': a level is empty");
    }
    return levels;
  }

  static Namespace namespace(String dotted) {
    return Namespace.of(levels(dotted).toArray(String[]::new));
  }

  /** {@code sales.orders}: the last level is the table's name, the others its namespace. */
  static TableIdentifier table(String dotted) {
    List<String> levels = levels(dotted);
    if (levels.size() < 2) {
      throw new IllegalArgumentException(
          "Invalid table '" + dotted + "': write NAMESPACE.TABLE, e.g. sales.orders");
    }
    return TableIdentifier.of(levels.toArray(String[]::new));
  }
}
