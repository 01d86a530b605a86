package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/puddle-local} on a machine whose default java is older than the twin needs: with a JDK
 * 17 first on the PATH and in JAVA_HOME, it runs the twin on a JDK 21 or newer found beside it,
 * with a console for people (nothing on stderr, a text line per request); with no newer JDK
 * anywhere, it says in one line what it needs and where it looked, and fails.
 *
 * <p>The old JDK is a stand-in that reports version 17 and, if run, fails as a JDK 17 fails on the
 * twin's classes; its release file says 17, as a real JDK's does.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LauncherIT {
  private static final Path LAUNCHER = TwinProcess.ROOT.resolve("bin/puddle-local");

  /** What the launcher's shell needs besides java, and nothing else of the system's PATH. */
  private static final List<String> TOOLS =
      List.of("bash", "env", "sed", "head", "dirname", "readlink");

  @TempDir Path dir;
  private Path oldJdk;
  private Path tools;

  @BeforeEach
  void setUp() throws IOException {
    oldJdk = Files.createDirectories(dir.resolve("jdk-17"));
    Files.writeString(oldJdk.resolve("release"), "JAVA_VERSION=\"17.0.2\"\n");
    Path java = Files.createDirectories(oldJdk.resolve("bin")).resolve("java");
    Files.writeString(
        java,
        """
        #!/bin/sh
        echo '    java.specification.version = 17' >&2
        echo 'openjdk version "17.0.2" 2022-01-18' >&2
        case "$*" in *-jar*)
          echo 'Error: UnsupportedClassVersionError: class file version 65.0' >&2; exit 1;;
        esac
        """);
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    tools = Files.createDirectories(dir.resolve("tools"));
    for (String tool : TOOLS) {
      Files.createSymbolicLink(tools.resolve(tool), which(tool));
    }
  }

  @Test
  void runsTheTwinOnANewerJdkWhenAnOldJavaIsFirstOnThePath() throws Exception {
    Path newer = Path.of(System.getProperty("java.home"));
    // the twin's own tools (PostgreSQL's scripts) need the system's PATH after them
    ProcessBuilder builder =
        launcher(
            oldJdk.resolve("bin") + ":" + newer.resolve("bin") + ":" + System.getenv("PATH"),
            TwinProcess.arguments(dir.resolve("data"), "root:launcher-secret-not-for-production"));
    // only JAVA_HOME and the PATH may lead it to the newer JDK, not the usual folders
    builder.environment().put("PUDDLE_JAVA_DIRS", dir.resolve("nowhere").toString());

    try (TwinProcess twin = TwinProcess.start(builder)) {
      Map<String, String> properties = twin.awaitRunning(Duration.ofSeconds(90));
      // the launcher became a newer JDK's java (this one's, unless the system has a newer one),
      // which runs the twin
      Path java = Path.of(twin.process().info().command().orElseThrow()).toRealPath();
      assertThat(java).isNotEqualTo(oldJdk.resolve("bin/java").toRealPath());
      assertThat(java.getFileName()).hasToString("java");
      HttpResponse<String> response;
      try (HttpClient client = HttpClient.newHttpClient()) {
        response =
            client.send(
                HttpRequest.newBuilder(URI.create(properties.get("uri") + "/v1/config")).build(),
                HttpResponse.BodyHandlers.ofString());
      }
      assertThat(response.statusCode()).isEqualTo(401);
      String line = twin.awaitLine(l -> l.contains(" /v1/config "), Duration.ofSeconds(30));
      assertThat(line)
          .matches(
              "\\d{2}:\\d{2}:\\d{2}\\.\\d{3} GET /v1/config 401 NotAuthorizedException"
                  + " \\d+\\.\\d ms -");
      // no third-party warnings at start-up, nor any other line on stderr
      assertThat(twin.stderr()).isEmpty();
    }
  }

  @Test
  void saysInOneLineWhatItNeedsWhenNoJavaIsNewEnough() throws Exception {
    ProcessBuilder builder = launcher(oldJdk.resolve("bin") + ":" + tools, List.of("--help"));
    builder.environment().put("PUDDLE_JAVA_DIRS", dir.resolve("nowhere") + "/*");

    Process process = builder.start();
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).isNotZero();
    assertThat(stdout).isEmpty();
    assertThat(stderr.lines().toList())
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .contains("needs a JDK 21 or newer")
                    .contains("$JAVA_HOME")
                    .contains("the PATH")
                    .contains(dir.resolve("nowhere") + "/*")
                    .contains(oldJdk.toRealPath() + " (17)"));
  }

  /** The launcher with only {@code path} for PATH, the old JDK as JAVA_HOME, a HOME of its own. */
  private ProcessBuilder launcher(String path, List<String> arguments) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(LAUNCHER.toString());
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.clear();
    env.put("PATH", path);
    env.put("JAVA_HOME", oldJdk.toString());
    env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
    return builder;
  }

  /** Where {@code tool} is on this test's own PATH. */
  private static Path which(String tool) {
    for (String entry : System.getenv("PATH").split(":")) {
      Path candidate = Path.of(entry, tool);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(tool + " is not on the PATH");
  }
}
