package dev.puddle.bench.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * A child JVM started with the runner's own {@code java}: its output goes to a log file, a line of
 * it can signal readiness, and {@link #close()} stops it and everything it started.
 */
public final class ChildJvm implements AutoCloseable {
  private static final Duration GRACEFUL_STOP = Duration.ofSeconds(60);

  private final String name;
  private final Process process;
  private final CompletableFuture<String> signal;
  private final long spawnNanos;

  private ChildJvm(
      String name, Process process, CompletableFuture<String> signal, long spawnNanos) {
    this.name = name;
    this.process = process;
    this.signal = signal;
    this.spawnNanos = spawnNanos;
  }

  /**
   * Starts {@code java <arguments>} with exactly {@code environment} (plus PATH, HOME, LANG and JAVA_TOOL_OPTIONS, e.g. to profile), so
   * nothing of the runner's environment leaks into the configuration of the child.
   *
   * @param signalLine the first output line matching it completes {@link #awaitSignal}
   */
  public static ChildJvm start(
      String name,
      List<String> arguments,
      Map<String, String> environment,
      Path log,
      Predicate<String> signalLine) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    Map<String, String> inherited = Map.copyOf(env);
    env.clear();
    for (String kept : List.of("PATH", "HOME", "LANG", "JAVA_TOOL_OPTIONS")) {
      if (inherited.containsKey(kept)) {
        env.put(kept, inherited.get(kept));
      }
    }
    env.putAll(environment);
    try {
      Files.createDirectories(log.getParent());
      long spawnNanos = System.nanoTime();
      Process process = builder.start();
      CompletableFuture<String> signal = new CompletableFuture<>();
      Thread pump = new Thread(() -> pump(process, log, signalLine, signal), name + "-output");
      pump.setDaemon(true);
      pump.start();
      return new ChildJvm(name, process, signal, spawnNanos);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start " + name, e);
    }
  }

  /** Copies the child's output to its log, watching for the signal line. */
  private static void pump(
      Process process, Path log, Predicate<String> signalLine, CompletableFuture<String> signal) {
    try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        out.println(line);
        out.flush();
        if (!signal.isDone() && signalLine.test(line)) {
          signal.complete(line);
        }
      }
    } catch (IOException e) {
      // the child went away: whoever waits for its signal learns it below
    } finally {
      signal.completeExceptionally(new IllegalStateException("the child's output ended"));
    }
  }

  /**
   * Waits for the signal line and returns it with the time since the process was spawned.
   *
   * @throws IllegalStateException if the child exits first or the timeout passes
   */
  public Signal awaitSignal(Duration timeout) {
    try {
      String line = signal.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return new Signal(line, Duration.ofNanos(System.nanoTime() - spawnNanos));
    } catch (TimeoutException e) {
      throw new IllegalStateException(name + " did not get ready within " + timeout, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          name + " ended before its signal" + exitCode() + "; see its log", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + name, e);
    }
  }

  /** The line a child signalled with, and how long after its spawn the runner saw it. */
  public record Signal(String line, Duration sinceSpawn) {}

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Its exit code, once it has exited (its output ends a moment before). */
  private String exitCode() {
    try {
      return process.waitFor(5, TimeUnit.SECONDS) ? " (exit " + process.exitValue() + ")" : "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /**
   * Stops the child with SIGTERM so its shutdown hooks run (the twin stops its PostgreSQL there);
   * only if it is still alive after a minute are it and its descendants killed.
   */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    List<ProcessHandle> descendants = process.descendants().toList();
    process.destroy();
    try {
      if (!process.waitFor(GRACEFUL_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      descendants.forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ")";
  }
}
