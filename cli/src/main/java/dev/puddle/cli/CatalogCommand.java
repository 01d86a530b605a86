package dev.puddle.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that talks to the catalog and prints what it got. */
abstract class CatalogCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public final Integer call() {
    run();
    return ExitCode.OK;
  }

  abstract void run();

  final CatalogClient client() {
    return cli().client();
  }

  final Printer printer() {
    return cli().printer();
  }

  private PuddleCli cli() {
    return (PuddleCli) spec.root().userObject();
  }
}
