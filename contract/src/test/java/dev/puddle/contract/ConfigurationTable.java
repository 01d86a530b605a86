package dev.puddle.contract;

import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The configuration table of the docs, printed from {@link EnvironmentVariable}: one row per
 * variable, with its default and what it sets. {@code main} prints it; {@link
 * EnvironmentVariableTest} writes it to {@code contract/target/configuration-table.md} on every
 * build.
 */
final class ConfigurationTable {
  private ConfigurationTable() {}

  static String markdown() {
    return Stream.concat(
            Stream.of("| variable | default | meaning |", "|---|---|---|"),
            Stream.of(EnvironmentVariable.values())
                .map(
                    variable ->
                        "| `%s` | %s | %s |"
                            .formatted(
                                variable.key(),
                                variable.defaultValue().map(v -> "`" + v + "`").orElse("—"),
                                variable.description())))
        .collect(Collectors.joining("\n", "", "\n"));
  }

  public static void main(String[] args) {
    System.out.print(markdown());
  }
}
