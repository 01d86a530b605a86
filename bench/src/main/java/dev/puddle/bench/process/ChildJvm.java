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
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A child JVM started with the runner's own {@code java}: its output goes to a log file, it signals
 * readiness by a line of output or an answer, and {@link #close()} stops it and everything it
 * started.
 */
public final class ChildJvm implements AutoCloseable {
  private static final Duration GRACEFUL_STOP = Duration.ofSeconds(60);
  private static final Duration READY_POLL = Duration.ofMillis(250);

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
   * Starts {@code java <arguments>} whose output the runner copies to {@code log} line by line, so
   * that it sees the signal line the moment the child writes it: for a start that is timed.
   *
   * @param signalLine the first output line matching it completes {@link #awaitSignal}
   */
  public static ChildJvm start(
      String name,
      List<String> arguments,
      Map<String, String> environment,
      Path log,
      Predicate<String> signalLine) {
    ProcessBuilder builder = builder(arguments, environment).redirectErrorStream(true);
    CompletableFuture<String> signal = new CompletableFuture<>();
    ChildJvm jvm = spawn(name, builder, log, signal);
    Thread pump = new Thread(() -> pump(jvm.process, log, signalLine, signal), name + "-output");
    pump.setDaemon(true);
    pump.start();
    return jvm;
  }

  /**
   * Starts a server, which writes its standard error to {@code log} and its standard output, with
   * the line Puddle logs per request, there too only if {@code keepOutput}. In AWS those lines go
   * from the function to the Lambda service through a pipe; on this machine a file would add the
   * disk's writeback, which competes with both servers and the client for the CPUs while they are
   * measured. Either way nothing passes through the runner, which is also the servers' client.
   * Readiness is asked of the server itself ({@link #awaitReady}).
   */
  public static ChildJvm startServer(
      String name,
      List<String> arguments,
      Map<String, String> environment,
      Path log,
      boolean keepOutput) {
    ProcessBuilder builder = builder(arguments, environment);
    if (keepOutput) {
      builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
    } else {
      builder
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.to(log.toFile()));
    }
    return spawn(
        name,
        builder,
        log,
        CompletableFuture.failedFuture(
            new IllegalStateException(name + " signals readiness by an answer, not a line")));
  }

  /**
   * {@code java <arguments>} with exactly {@code environment} (plus PATH, HOME, LANG and
   * JAVA_TOOL_OPTIONS, e.g. to profile), so nothing of the runner's environment leaks into the
   * configuration of the child.
   */
  private static ProcessBuilder builder(List<String> arguments, Map<String, String> environment) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    Map<String, String> inherited = Map.copyOf(env);
    env.clear();
    for (String kept : List.of("PATH", "HOME", "LANG", "JAVA_TOOL_OPTIONS")) {
      if (inherited.containsKey(kept)) {
        env.put(kept, inherited.get(kept));
      }
    }
    env.putAll(environment);
    return builder;
  }

  private static ChildJvm spawn(
      String name, ProcessBuilder builder, Path log, CompletableFuture<String> signal) {
    try {
      Files.createDirectories(log.getParent());
      long spawnNanos = System.nanoTime();
      return new ChildJvm(name, builder.start(), signal, spawnNanos);
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
   * Asks {@code ready} every 250 ms until it answers yes.
   *
   * @throws IllegalStateException if the child exits first or the timeout passes
   */
  public void awaitReady(BooleanSupplier ready, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready.getAsBoolean()) {
      if (!process.isAlive()) {
        throw new IllegalStateException(name + " ended" + exitCode() + "; see its log");
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(name + " was not ready within " + timeout);
      }
      try {
        Thread.sleep(READY_POLL);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + name, e);
      }
    }
  }

  /**
   * Waits for the signal line of a child started with {@link #start} and returns it with the time
   * since the process was spawned.
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
