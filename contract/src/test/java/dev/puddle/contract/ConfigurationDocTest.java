package dev.puddle.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The manual's configuration page and the functions' variables agree: every variable has a row
 * there with its default, and every variable the page names exists.
 */
class ConfigurationDocTest {
  private static final Path PAGE = Path.of("..", "docs", "configuration.md");

  /** The twin's own variable: the functions never read it. */
  private static final Set<String> NOT_A_FUNCTIONS_VARIABLE = Set.of("PUDDLE_ROOT_CREDENTIAL");

  @ParameterizedTest
  @EnumSource(EnvironmentVariable.class)
  void everyVariableHasARowWithItsDefault(EnvironmentVariable variable) throws IOException {
    List<String> rows =
        rows().stream().filter(row -> row.contains("`" + variable.key() + "`")).toList();
    assertThat(rows).as("rows naming %s", variable.key()).isNotEmpty();
    variable
        .defaultValue()
        .ifPresent(
            value ->
                assertThat(rows)
                    .as("the default of %s", variable.key())
                    .anySatisfy(row -> assertThat(row).contains("`" + value + "`")));
  }

  @Test
  void everyVariableThePageNamesExists() throws IOException {
    Set<String> known =
        java.util.Arrays.stream(EnvironmentVariable.values())
            .map(EnvironmentVariable::key)
            .collect(Collectors.toSet());
    Matcher names = Pattern.compile("\\bPUDDLE_[A-Z0-9_]+\\b").matcher(Files.readString(PAGE));
    while (names.find()) {
      String name = names.group();
      if (!NOT_A_FUNCTIONS_VARIABLE.contains(name)) {
        assertThat(known).as("the page names %s", name).contains(name);
      }
    }
  }

  private static List<String> rows() throws IOException {
    return Files.readAllLines(PAGE).stream().filter(line -> line.startsWith("| `")).toList();
  }
}
