package dev.puddle.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A local twin in a process of its own, started from the shaded jar ({@code
 * local/target/puddle-local.jar}) as a user starts it, on free ports. Its output is read as it
 * comes, so a test can wait for a line, and it can be killed as a crash would.
 */
final class TwinProcess implements AutoCloseable {
  static final Path ROOT =
      Path.of(System.getProperty("puddle.events.dir", "../events")).toAbsolutePath().getParent();
  static final Path JAR = ROOT.resolve("local/target/puddle-local.jar");
  static final String RUNNING = "Puddle is running. Catalog URI: ";

  private static final String END = "\u0000end";

  private final Process process;
  private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
  private final BlockingQueue<String> stderr = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();

  private TwinProcess(Process process) {
    this.process = process;
    pump(process.getInputStream(), stdout, "stdout");
    pump(process.getErrorStream(), stderr, "stderr");
  }

  /** The twin's arguments for {@code data} on free ports, root's credential {@code root}. */
  static List<String> arguments(Path data, String root) {
    return List.of(
        "--port", "0",
        "--s3-port", "0",
        "--sqs-port", "0",
        "--data-dir", data.toString(),
        "--root-credential", root);
  }

  /** {@code java -jar} of the shaded jar with this JVM's java. */
  static TwinProcess java(Path data, String root) throws IOException {
    return java(data, root, List.of());
  }

  /** {@code java -jar} of the shaded jar with this JVM's java, with further arguments. */
  static TwinProcess java(Path data, String root, List<String> more) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-jar");
    command.add(JAR.toString());
    command.addAll(arguments(data, root));
    command.addAll(more);
    return start(new ProcessBuilder(command));
  }

  static TwinProcess start(ProcessBuilder builder) throws IOException {
    return new TwinProcess(builder.start());
  }

  /**
   * Waits for the banner's first line and returns the client properties it lists, or fails with
   * what the twin printed if it exits or is not up within {@code timeout}.
   */
  Map<String, String> awaitRunning(Duration timeout) throws InterruptedException {
    awaitLine(line -> line.startsWith(RUNNING), timeout);
    Map<String, String> properties = new LinkedHashMap<>();
    awaitLine(line -> line.equals("Client properties:"), timeout);
    for (String line = awaitLine(any -> true, timeout);
        line.startsWith("  ");
        line = awaitLine(any -> true, timeout)) {
      int equals = line.indexOf('=');
      properties.put(line.substring(2, equals), line.substring(equals + 1));
    }
    return properties;
  }

  /** The next line of standard output that matches, waiting for it at most {@code timeout}. */
  String awaitLine(Predicate<String> matching, Duration timeout) throws InterruptedException {
    return await(stdout, matching, timeout);
  }

  /** The next line of standard error that matches, waiting for it at most {@code timeout}. */
  String awaitError(Predicate<String> matching, Duration timeout) throws InterruptedException {
    return await(stderr, matching, timeout);
  }

  private String await(BlockingQueue<String> lines, Predicate<String> matching, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (line == null || line.equals(END)) {
        throw new AssertionError(
            (line == null ? "No such line within " + timeout : "The twin exited")
                + "; it printed "
                + seen
                + " and on stderr "
                + List.copyOf(stderr));
      }
      seen.add(line);
      if (matching.test(line)) {
        return line;
      }
    }
  }

  /** What the twin wrote on standard error so far. */
  List<String> stderr() {
    return stderr.stream().filter(line -> !line.equals(END)).toList();
  }

  long pid() {
    return process.pid();
  }

  Process process() {
    return process;
  }

  /** Kills the twin as the kernel's OOM killer would (SIGKILL), and waits until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      kill();
    }
  }

  private static void pump(InputStream in, BlockingQueue<String> lines, String name) {
    Thread pump =
        new Thread(
            () -> {
              try (BufferedReader reader =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                  lines.add(line);
                }
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              } finally {
                lines.add(END);
              }
            },
            "twin-" + name);
    pump.setDaemon(true);
    pump.start();
  }
}
