package dev.puddle.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The machine a run measured on: processors, memory, CPU model, JDK and OS, and its load average at
 * the start and end of the run, which shows how busy others kept it.
 */
public record Machine(
    int processors,
    String memory,
    String cpu,
    String jdk,
    String os,
    String loadAtStart,
    String loadAtEnd) {

  /** What the machine is now; its load at the end is filled in by {@link #finished()}. */
  public static Machine now() {
    return new Machine(
        Runtime.getRuntime().availableProcessors(),
        totalMemory(),
        firstValue(Path.of("/proc/cpuinfo"), "model name").orElse("unknown"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        System.getProperty("os.name") + " " + System.getProperty("os.version"),
        loadAverage(),
        "");
  }

  public Machine finished() {
    return new Machine(processors, memory, cpu, jdk, os, loadAtStart, loadAverage());
  }

  /** One line for the report. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "%d CPUs (%s), %s memory, %s, %s; load average (1/5/15 min) %s at start, %s at end",
        processors,
        cpu,
        memory,
        jdk,
        os,
        loadAtStart,
        loadAtEnd);
  }

  private static String totalMemory() {
    return firstValue(Path.of("/proc/meminfo"), "MemTotal")
        .map(value -> value.replace(" kB", ""))
        .map(
            kilobytes ->
                String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(kilobytes) / 1048576.0))
        .orElse("unknown");
  }

  private static String loadAverage() {
    try {
      List<String> fields = List.of(Files.readString(Path.of("/proc/loadavg")).split(" "));
      return String.join(" ", fields.subList(0, 3));
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** The value of the first {@code key: value} line of a /proc file. */
  private static Optional<String> firstValue(Path file, String key) {
    try (var lines = Files.lines(file)) {
      return lines
          .filter(line -> line.startsWith(key))
          .map(line -> line.substring(line.indexOf(':') + 1).strip())
          .findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
