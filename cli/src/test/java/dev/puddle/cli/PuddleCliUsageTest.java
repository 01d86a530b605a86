package dev.puddle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What {@code puddle} does before and around the catalog: help, completion, configuration and
 * profiles, and the exit codes of answers a twin does not give (a 5xx, a proxy's page, nobody
 * listening), against a test endpoint speaking the catalog's wire protocol.
 */
class PuddleCliUsageTest {
  @TempDir Path config;

  private Cli cli() {
    return new Cli(Map.of("XDG_CONFIG_HOME", config.toString(), "HOME", config.toString()));
  }

  @Test
  void everyCommandHasHelp() {
    List<List<String>> paths = new ArrayList<>();
    PrintWriter none = new PrintWriter(Writer.nullWriter());
    collect(
        PuddleCli.commandLine(new PuddleCli(Map.of(), none), none, none), new ArrayList<>(), paths);
    assertThat(paths).hasSizeGreaterThan(30);
    for (List<String> path : paths) {
      List<String> args = new ArrayList<>(path);
      args.add("--help");
      Cli.Run help = cli().run(args.toArray(String[]::new)).succeeds();
      assertThat(help.out()).as(String.join(" ", path)).startsWith("Usage: puddle");
    }
  }

  private static void collect(CommandLine line, List<String> path, List<List<String>> paths) {
    paths.add(List.copyOf(path));
    line.getSubcommands()
        .forEach(
            (name, sub) -> {
              List<String> next = new ArrayList<>(path);
              next.add(name);
              collect(sub, next, paths);
            });
  }

  @Test
  void aGroupWithoutItsSubcommandIsAUsageError() {
    assertThat(cli().run("warehouses").fails(ExitCode.USAGE).err())
        .contains("Missing required subcommand");
    cli().run("frobnicate").fails(ExitCode.USAGE);
  }

  @Test
  void completionIsABashScriptForEveryCommand() {
    String script = cli().run("completion").succeeds().out();
    assertThat(script).contains("complete -F", "dead-letters", "redrive", "--warehouse");
  }

  @Test
  void withoutACatalogOrACredentialNothingIsSent() {
    assertThat(cli().run("warehouses", "list").fails(ExitCode.USAGE).err())
        .isEqualTo("puddle: No catalog URI: pass --uri, set PUDDLE_URI, or write a profile\n");
    assertThat(
            cli()
                .with("PUDDLE_URI", "http://127.0.0.1:9")
                .run("warehouses", "list")
                .fails(ExitCode.USAGE)
                .err())
        .contains("No credential");
    assertThat(
            cli()
                .with("PUDDLE_URI", "http://127.0.0.1:9")
                .with("PUDDLE_CREDENTIAL", "no-secret")
                .run("warehouses", "list")
                .fails(ExitCode.USAGE)
                .err())
        .contains("expected <client id>:<secret>");
    assertThat(
            cli()
                .with("PUDDLE_CREDENTIAL", "a:b")
                .run("--uri", "ftp://catalog", "warehouses", "list")
                .fails(ExitCode.USAGE)
                .err())
        .contains("use http or https");
    assertThat(
            cli()
                .with("PUDDLE_URI", "http://127.0.0.1:9")
                .with("PUDDLE_TOKEN", "t")
                .with("PUDDLE_CREDENTIAL", "a:b")
                .run("warehouses", "list")
                .fails(ExitCode.USAGE)
                .err())
        .contains("both a token and a credential");
  }

  @Test
  void aProfileMustExistWhenNamedAndBePrivate() throws IOException {
    assertThat(cli().run("--profile", "prod", "warehouses", "list").fails(ExitCode.USAGE).err())
        .contains("No profile 'prod'");
    assertThat(cli().run("--profile", "../x", "warehouses", "list").fails(ExitCode.USAGE).err())
        .contains("Invalid profile name");
    Path file = Profile.file("default", Map.of("XDG_CONFIG_HOME", config.toString()));
    assertThat(file).isEqualTo(config.resolve("puddle/profiles/default.properties"));
    Files.createDirectories(file.getParent());
    Files.writeString(file, "uri=http://127.0.0.1:9\npassword=x\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertThat(cli().run("warehouses", "list").fails(ExitCode.USAGE).err())
        .contains("Unknown key 'password'");
    Files.writeString(file, "uri=http://127.0.0.1:9\ntoken=abc\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw----"));
    assertThat(cli().run("warehouses", "list").fails(ExitCode.USAGE).err())
        .contains("is not private");
    // without XDG_CONFIG_HOME: ~/.config
    assertThat(Profile.file("default", Map.of("HOME", "/home/ann")))
        .isEqualTo(Path.of("/home/ann/.config/puddle/profiles/default.properties"));
  }

  @Test
  void aCatalogThatCannotBeReachedExitsWithOne() {
    assertThat(
            cli()
                .with("PUDDLE_URI", "http://127.0.0.1:9")
                .with("PUDDLE_TOKEN", "t")
                .run("warehouses", "list")
                .fails(ExitCode.FAILED)
                .err())
        .startsWith("puddle: Cannot reach the catalog at http://127.0.0.1:9/");
  }

  @Test
  void serverErrorsAndForeignAnswersGetTheirOwnExitCodes() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/admin/v1/warehouses",
        exchange ->
            answer(
                exchange,
                503,
                "{\"error\":{\"message\":\"The metastore is unavailable\","
                    + "\"type\":\"ServiceUnavailableException\",\"code\":503}}"));
    server.createContext(
        "/admin/v1/principals", exchange -> answer(exchange, 502, "<html>Bad Gateway</html>"));
    server.start();
    try {
      Cli cli =
          cli()
              .with("PUDDLE_URI", "http://127.0.0.1:" + server.getAddress().getPort() + "/")
              .with("PUDDLE_TOKEN", "a-token");
      assertThat(cli.run("warehouses", "list").fails(ExitCode.SERVER_ERROR).err())
          .isEqualTo("puddle: The metastore is unavailable (ServiceUnavailableException)\n");
      assertThat(cli.run("principals", "list").fails(ExitCode.SERVER_ERROR).err())
          .isEqualTo("puddle: HTTP 502: <html>Bad Gateway</html>\n");
    } finally {
      server.stop(0);
    }
  }

  private static void answer(com.sun.net.httpserver.HttpExchange exchange, int status, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
