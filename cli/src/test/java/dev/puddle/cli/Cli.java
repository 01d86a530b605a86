package dev.puddle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;

/** Runs {@code puddle} in-process with an environment of its own, capturing what it prints. */
final class Cli {
  private final Map<String, String> env;

  Cli(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** The same environment with {@code name} set (or removed, for null). */
  Cli with(String name, String value) {
    Map<String, String> changed = new HashMap<>(env);
    if (value == null) {
      changed.remove(name);
    } else {
      changed.put(name, value);
    }
    return new Cli(changed);
  }

  Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = PuddleCli.run(args, env, new PrintWriter(out, true), new PrintWriter(err, true));
    Run run = new Run(exit, out.toString(), err.toString());
    // whatever failed, the user reads a message, never a stack trace
    assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception in thread");
    return run;
  }

  /** A command's exit code and output. */
  record Run(int exit, String out, String err) {
    Run succeeds() {
      assertThat(exit).as("exit code; stderr: %s", err).isZero();
      assertThat(err).isEmpty();
      return this;
    }

    /** Fails with the exit code, printing one message. */
    Run fails(int code) {
      assertThat(exit).as("exit code; stdout: %s, stderr: %s", out, err).isEqualTo(code);
      assertThat(err).isNotBlank();
      return this;
    }

    JsonNode json() {
      try {
        return CatalogClient.JSON.readTree(out);
      } catch (JsonProcessingException e) {
        throw new AssertionError("Not JSON: " + out, e);
      }
    }
  }
}
