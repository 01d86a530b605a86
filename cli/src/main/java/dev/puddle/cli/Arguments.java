package dev.puddle.cli;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Names from the command line, a bad one a usage error of the command. */
final class Arguments {
  private Arguments() {}

  static Namespace namespace(CommandSpec spec, String dotted) {
    try {
      return Names.namespace(dotted);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  static TableIdentifier table(CommandSpec spec, String dotted) {
    try {
      return Names.table(dotted);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
