package dev.puddle.cli;

import java.io.PrintWriter;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ScopeType;

/**
 * {@code puddle}: manages a Puddle catalog over its management API and shows its contents through
 * the Iceberg REST API. {@link #run} is the whole program, so that tests drive it in-process.
 */
@Command(
    name = "puddle",
    mixinStandardHelpOptions = true,
    scope = ScopeType.INHERIT,
    versionProvider = PuddleCli.Version.class,
    synopsisSubcommandLabel = "COMMAND",
    description = "Manages a Puddle catalog: warehouses, principals, roles, grants, purge jobs.",
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  done",
      "  1  failed otherwise (catalog unreachable, request rejected as invalid)",
      "  2  usage or configuration error: nothing was sent",
      "  3  not found (404)",
      "  4  refused (401, 403)",
      "  5  catalog error (5xx): a change's outcome is unknown",
      "  6  conflict (409)",
    },
    subcommands = {
      Warehouses.class,
      Principals.class,
      PrincipalRoles.class,
      CatalogRoles.class,
      Assignments.Assign.class,
      Assignments.Unassign.class,
      Grants.Grant.class,
      Grants.Revoke.class,
      Grants.class,
      PurgeJobs.class,
      PurgeJobs.DeadLetters.class,
      Namespaces.class,
      Tables.class,
      Completion.class,
    })
public final class PuddleCli {
  @Mixin ConnectionOptions options;

  private final Map<String, String> env;
  private final PrintWriter out;
  private HttpClient http;
  private CatalogClient client;

  PuddleCli(Map<String, String> env, PrintWriter out) {
    this.env = env;
    this.out = out;
  }

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    System.exit(run(args, System.getenv(), out, err));
  }

  /** Runs a command line, printing to {@code out} and {@code err}; returns its exit code. */
  public static int run(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err) {
    PuddleCli cli = new PuddleCli(env, out);
    try {
      return commandLine(cli, out, err).execute(args);
    } finally {
      if (cli.http != null) {
        cli.http.close();
      }
    }
  }

  static CommandLine commandLine(PuddleCli cli, PrintWriter out, PrintWriter err) {
    CommandLine commandLine = new CommandLine(cli);
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setExecutionExceptionHandler(
        (e, line, parsed) -> {
          // a message, never a stack trace: what failed is the catalog's or the user's to fix
          String message = e instanceof CliException ? e.getMessage() : "unexpected error: " + e;
          line.getErr().println("puddle: " + message);
          line.getErr().flush();
          return e instanceof CliException failure ? failure.exitCode() : ExitCode.FAILED;
        });
    return commandLine;
  }

  /** The catalog, connected on first use: commands that only print help never need one. */
  CatalogClient client() {
    if (client == null) {
      ConnectionOptions.Connection connection = options.resolve(env);
      http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
      client = new CatalogClient(http, connection);
    }
    return client;
  }

  Printer printer() {
    return new Printer(out, options.output);
  }

  /** The version in the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = PuddleCli.class.getPackage().getImplementationVersion();
      return new String[] {"puddle " + (version == null ? "(development build)" : version)};
    }
  }
}
