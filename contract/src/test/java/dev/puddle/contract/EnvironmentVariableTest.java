package dev.puddle.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The variables' names and descriptions are fit for the docs, and unset means the default. */
class EnvironmentVariableTest {

  @Test
  void namesAreUnique() {
    assertThat(Arrays.stream(EnvironmentVariable.values()).map(EnvironmentVariable::key))
        .doesNotHaveDuplicates();
  }

  @ParameterizedTest
  @EnumSource(EnvironmentVariable.class)
  void everyVariableIsPuddlesOwnButTheRegionLambdaSets(EnvironmentVariable variable) {
    assertThat(variable.key()).matches("[A-Z][A-Z0-9_]*");
    if (variable != EnvironmentVariable.REGION) {
      assertThat(variable.key()).isEqualTo("PUDDLE_" + variable.name());
    }
  }

  @ParameterizedTest
  @EnumSource(EnvironmentVariable.class)
  void everyDescriptionIsOneSentenceOnOneLineThatATableCanHold(EnvironmentVariable variable) {
    assertThat(variable.description()).isNotBlank().endsWith(".").doesNotContain("\n", "|");
    variable.defaultValue().ifPresent(value -> assertThat(value).isNotBlank());
  }

  @Test
  void anUnsetOrBlankVariableHasItsDefaultAndASetOneIsTrimmed() {
    EnvironmentVariable realm = EnvironmentVariable.REALM;

    assertThat(realm.in(Map.of())).contains("default");
    assertThat(realm.in(Map.of(realm.key(), "  "))).contains("default");
    assertThat(realm.in(Map.of(realm.key(), " acme "))).contains("acme");
    assertThat(EnvironmentVariable.DB_URL.in(Map.of())).isEmpty();
  }

  @Test
  void writesTheConfigurationTable() throws IOException {
    String table = ConfigurationTable.markdown();
    Path file = Path.of("target", "configuration-table.md");
    Files.writeString(file, table);

    assertThat(table.lines())
        .hasSize(2 + EnvironmentVariable.values().length)
        .contains(
            "| `PUDDLE_DB_MODE` | `jdbc` | " + EnvironmentVariable.DB_MODE.description() + " |")
        .contains("| `PUDDLE_DB_URL` | — | " + EnvironmentVariable.DB_URL.description() + " |");
  }
}
