package dev.puddle.bench.report;

import dev.puddle.bench.measure.ColdInit;
import dev.puddle.bench.measure.CommitRun;
import dev.puddle.bench.measure.Comparison;
import dev.puddle.bench.measure.Interleaved.Round;
import dev.puddle.bench.measure.Stats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToIntFunction;

/** Everything one run found, as Markdown: the side-by-side ratios first, then Puddle alone. */
public final class Report {
  private final String setup;
  private final List<Comparison> comparisons = new ArrayList<>();
  private final List<Comparison> accessAtScale = new ArrayList<>();
  private String accessAtScaleSetup;
  private final List<CommitDetail> commits = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private ColdInits coldInits;
  private OperationCosts costs;
  private RoundTrips roundTrips;
  private List<ArtifactSizes.Artifact> artifacts = List.of();

  /** One commit configuration's rounds, for the lost-commit accounting. */
  public record CommitDetail(String label, List<Round<CommitRun>> rounds) {
    int sum(boolean puddle, ToIntFunction<CommitRun> field) {
      return rounds.stream()
          .mapToInt(r -> field.applyAsInt(puddle ? r.puddle() : r.reference()))
          .sum();
    }

    public int lost(boolean puddle) {
      return sum(puddle, CommitRun::lost);
    }

    public int phantoms(boolean puddle) {
      return sum(puddle, CommitRun::phantoms);
    }
  }

  /**
   * @param setup how the run was configured, in a few sentences
   */
  public Report(String setup) {
    this.setup = setup;
  }

  public void add(Comparison comparison) {
    comparisons.add(comparison);
  }

  /**
   * A comparison of Puddle with itself: a realm at scale against an empty realm, reported in a
   * section of its own.
   */
  public void addAccessAtScale(Comparison comparison) {
    accessAtScale.add(comparison);
  }

  /** How the access-at-scale realms were made, for their section. */
  public void accessAtScaleSetup(String setup) {
    this.accessAtScaleSetup = setup;
  }

  public void add(CommitDetail detail) {
    commits.add(detail);
  }

  /** A one-off observation, outside the interleaved rounds. */
  public void note(String note) {
    notes.add(note);
  }

  /** A measurement that could not be completed, and why. */
  public void failed(String measurement, Exception cause) {
    failures.add(measurement + ": " + cause);
  }

  /**
   * The read handler's cold inits on a functions jar and, if {@code peerJar} is not null, on a peer
   * jar measured interleaved with it.
   */
  /** The cold inits of this checkout's functions jar and, interleaved, of a peer jar's. */
  public record ColdInits(
      Path jar, List<ColdInit.Sample> samples, Path peerJar, List<ColdInit.Sample> peerSamples) {
    public ColdInits {
      samples = List.copyOf(samples);
      peerSamples = List.copyOf(peerSamples);
    }

    List<Duration> times() {
      return samples.stream().map(ColdInit.Sample::time).toList();
    }

    List<Duration> peerTimes() {
      return peerSamples.stream().map(ColdInit.Sample::time).toList();
    }

    static long medianClasses(List<ColdInit.Sample> samples) {
      return Math.round(Stats.median(samples.stream().map(s -> (double) s.classes()).toList()));
    }
  }

  public void coldInits(ColdInits coldInits) {
    this.coldInits = coldInits;
  }

  public void roundTrips(RoundTrips roundTrips) {
    this.roundTrips = roundTrips;
  }

  public void costs(OperationCosts costs) {
    this.costs = costs;
  }

  public void artifacts(List<ArtifactSizes.Artifact> artifacts) {
    this.artifacts = List.copyOf(artifacts);
  }

  /**
   * The report, with the machine as it was at the end of the run.
   *
   * @param title the report's heading, e.g. the run's date
   * @param command the command line of the run
   */
  public String toMarkdown(String title, String command, Machine machine) {
    StringBuilder out = new StringBuilder();
    out.append("# ").append(title).append("\n\n");
    out.append("Written by the benchmark runner (`bench/`) at the end of the run; the method is in")
        .append(" [the benchmarks' README](../README.md). Command: `")
        .append(command)
        .append("`.\n\n");
    out.append("## Puddle side by side with Iceberg's reference REST server\n\n");
    out.append(setup).append("\n\n");
    out.append("Machine: ").append(machine.describe()).append(".");
    if (roundTrips != null) {
      out.append(" One round trip after the run: ").append(roundTrips.describe()).append(".");
    }
    out.append("\n\n");
    out.append(
        "Ratios are Puddle/reference per round, then their median and spread (lowest–highest)."
            + " For latencies lower is better, for throughput higher is better. Absolute values"
            + " are medians over the rounds, for scale only.\n\n");
    out.append("| measurement | Puddle / reference | spread | Puddle | reference | goal | met |\n");
    out.append("|---|---:|---:|---:|---:|---|---|\n");
    comparisons.forEach(c -> appendRow(out, c));
    if (!commits.isEmpty()) {
      out.append("\nCommits over all measured rounds: ok / failed after retries / other errors /")
          .append(" lost (seen succeed, missing from the table's snapshots) / phantoms (seen fail")
          .append(" with a conflict, present in the snapshots):\n\n");
      out.append("| writers | Puddle | reference |\n|---|---|---|\n");
      for (CommitDetail detail : commits) {
        out.append("| ")
            .append(detail.label())
            .append(" | ")
            .append(counts(detail, true))
            .append(" | ")
            .append(counts(detail, false))
            .append(" |\n");
      }
    }
    if (!notes.isEmpty()) {
      out.append('\n');
      notes.forEach(n -> out.append("- ").append(n).append('\n'));
    }
    appendAccessAtScale(out);
    appendPuddleAlone(out);
    appendGoals(out);
    if (!failures.isEmpty()) {
      out.append("\n## Not measured\n\n");
      failures.forEach(f -> out.append("- ").append(f).append('\n'));
    }
    return out.toString();
  }

  private void appendAccessAtScale(StringBuilder out) {
    if (accessAtScale.isEmpty()) {
      return;
    }
    out.append("\n## Access at scale: Puddle against itself\n\n");
    if (accessAtScaleSetup != null) {
      out.append(accessAtScaleSetup).append("\n\n");
    }
    out.append("| measurement | at scale / empty | spread | at scale | empty | goal | met |\n");
    out.append("|---|---:|---:|---:|---:|---|---|\n");
    accessAtScale.forEach(c -> appendRow(out, c));
  }

  private static void appendRow(StringBuilder out, Comparison c) {
    out.append(
        String.format(
            Locale.ROOT,
            "| %s | **%.2fx** | %.2f–%.2fx | %s | %s | %s | %s |%n",
            c.name(),
            c.medianRatio(),
            c.minRatio(),
            c.maxRatio(),
            value(c.medianPuddle(), c.unit()),
            value(c.medianReference(), c.unit()),
            c.verdict().map(Comparison.Verdict::goal).orElse(""),
            c.verdict().map(v -> v.met() ? "met" : "**not met**").orElse("")));
  }

  private void appendPuddleAlone(StringBuilder out) {
    out.append("\n## Puddle alone\n\n");
    out.append("SQL statements and S3 requests per operation, quoted from `OperationCostTest`");
    if (costs == null) {
      out.append(": not read.\n");
    } else {
      out.append(costs.written().map(w -> " (output written " + w + ")").orElse(""));
      if (!costs.current()) {
        out.append(". **These counts may not describe the code measured here**: ")
            .append(String.join("; ", costs.problems()))
            .append(". Run `")
            .append(OperationCosts.COMMAND)
            .append("` before the benchmark to quote counts of the current code.");
      }
      if (costs.lines().isEmpty()) {
        out.append("\n");
      } else {
        out.append(costs.current() ? ":" : " What it says:").append("\n\n```\n");
        costs.lines().forEach(line -> out.append(line).append('\n'));
        out.append("```\n");
      }
    }
    if (coldInits != null) {
      out.append(
          String.format(
              Locale.ROOT,
              "%nCold init of the read handler (new JVM on the functions jar, C1 only as on"
                  + " Lambda: process spawn to the answer of one `loadTable` event): `%s`"
                  + " (%s) median **%.0f ms** of %d (%s), %,d classes loaded",
              coldInits.jar().getFileName(),
              size(fileSize(coldInits.jar())),
              medianMillis(coldInits.times()),
              coldInits.times().size(),
              millisList(coldInits.times()),
              ColdInits.medianClasses(coldInits.samples())));
      if (coldInits.peerJar() != null) {
        out.append(
            String.format(
                Locale.ROOT,
                "; peer `%s` (%s), interleaved with it, median **%.0f ms** (%s), %,d classes"
                    + " loaded: ratio **%.2fx**",
                coldInits.peerJar(),
                size(fileSize(coldInits.peerJar())),
                medianMillis(coldInits.peerTimes()),
                millisList(coldInits.peerTimes()),
                ColdInits.medianClasses(coldInits.peerSamples()),
                medianMillis(coldInits.times()) / medianMillis(coldInits.peerTimes())));
      }
      out.append(".");
      if (roundTrips != null) {
        out.append(" Round trips on this machine: ").append(roundTrips.describe()).append(".");
      }
      out.append("\n");
    }
    if (!artifacts.isEmpty()) {
      out.append("\n| artifact | size |\n|---|---:|\n");
      for (ArtifactSizes.Artifact artifact : artifacts) {
        out.append("| ")
            .append(artifact.name())
            .append(" | ")
            .append(size(artifact.bytes()))
            .append(" |\n");
      }
    }
  }

  private static double medianMillis(List<Duration> durations) {
    return Stats.median(durations.stream().map(d -> d.toNanos() / 1e6).toList());
  }

  private static String millisList(List<Duration> durations) {
    return String.join(
        ", ",
        durations.stream()
            .map(d -> String.format(Locale.ROOT, "%.0f", d.toNanos() / 1e6))
            .toList());
  }

  private static long fileSize(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void appendGoals(StringBuilder out) {
    out.append("\n## Goals\n\n");
    for (Comparison c : concat(comparisons, accessAtScale)) {
      c.verdict()
          .ifPresent(
              v ->
                  out.append(
                      String.format(
                          Locale.ROOT,
                          "- %s: %s %s (%.2fx)%n",
                          c.name(),
                          v.goal(),
                          v.met() ? "met" : "**not met**",
                          c.medianRatio())));
    }
    out.append(s3Goal("0 S3 reads per loadTable", "loadTable", List.of("GET", "HEAD", "LIST"), 0));
    out.append(
        s3Goal("at most 1 S3 write per commit", "commit", List.of("PUT", "DELETE", "POST"), 1));
  }

  private String s3Goal(String goal, String operation, List<String> kinds, int allowed) {
    Optional<Map<String, Integer>> requests =
        costs == null ? Optional.empty() : costs.s3Requests(operation);
    if (requests.isEmpty()) {
      return "- " + goal + ": not measured (no " + operation + " line of OperationCostTest)\n";
    }
    if (!costs.current()) {
      // a verdict on counts of other code would pass for one on this code
      return "- " + goal + ": not judged (OperationCostTest's output is not current, see above)\n";
    }
    int count = kinds.stream().mapToInt(kind -> requests.get().getOrDefault(kind, 0)).sum();
    return String.format(
        Locale.ROOT,
        "- %s: %s (%d: %s)%n",
        goal,
        count <= allowed ? "met" : "**not met**",
        count,
        String.join(
            " ", kinds.stream().map(k -> k + "=" + requests.get().getOrDefault(k, 0)).toList()));
  }

  private static List<Comparison> concat(List<Comparison> first, List<Comparison> second) {
    List<Comparison> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  private static String counts(CommitDetail detail, boolean puddle) {
    return String.format(
        Locale.ROOT,
        "%d / %d / %d / %s / %s",
        detail.sum(puddle, CommitRun::succeeded),
        detail.sum(puddle, CommitRun::failed),
        detail.sum(puddle, CommitRun::errors),
        flagged(detail.lost(puddle)),
        flagged(detail.phantoms(puddle)));
  }

  /** A count that must be zero, in bold unless it is. */
  private static String flagged(int count) {
    return count == 0 ? "0" : "**" + count + "**";
  }

  private static String size(long bytes) {
    return bytes >= 1_000_000
        ? String.format(Locale.ROOT, "%.1f MB", bytes / 1e6)
        : String.format(Locale.ROOT, "%.0f kB", bytes / 1e3);
  }

  private static String value(double value, String unit) {
    return String.format(Locale.ROOT, value >= 100 ? "%.0f %s" : "%.2f %s", value, unit);
  }
}
