package dev.puddle.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code puddle completion}: a bash (and zsh) completion script for every command and option. */
@Command(
    name = "completion",
    description = {
      "Prints a bash completion script (zsh can load it with bashcompinit).",
      "  source <(puddle completion)     # this shell",
      "  puddle completion > ~/.local/share/bash-completion/completions/puddle"
    })
final class Completion implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    CommandSpec root = spec.root();
    spec.commandLine().getOut().print(AutoComplete.bash(root.name(), root.commandLine()));
    spec.commandLine().getOut().flush();
    return ExitCode.OK;
  }
}
