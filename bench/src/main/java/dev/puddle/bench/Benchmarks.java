package dev.puddle.bench;

import dev.puddle.bench.measure.Budget;
import dev.puddle.bench.measure.ColdInit;
import dev.puddle.bench.process.PuddleTwin;
import dev.puddle.bench.report.ArtifactSizes;
import dev.puddle.bench.report.LatestLink;
import dev.puddle.bench.report.Machine;
import dev.puddle.bench.report.OperationCosts;
import dev.puddle.bench.report.Report;
import dev.puddle.bench.report.RoundTrips;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.aws.s3.S3FileIO;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar bench/target/puddle-bench.jar}: starts Puddle's local twin and Iceberg's
 * reference REST server side by side, drives both with the same client load, interleaved, measures
 * what concerns Puddle alone, and prints the report as Markdown. The report is also written, as the
 * record of the run, to {@code docs/benchmarks/results/<the run's UTC date>.md} (or to {@code
 * --results-dir}); the docs link to that folder rather than quote its figures, and a report written
 * there becomes the README's link to the latest run.
 */
@Command(
    name = "puddle-bench",
    mixinStandardHelpOptions = true,
    description =
        "Benchmarks Puddle's local twin against Iceberg's reference REST server, side by side.")
public final class Benchmarks implements Callable<Integer> {
  /** Where the reports of runs go, one file per run, in the checkout. */
  static final String RESULTS = "docs/benchmarks/results";

  private static final DateTimeFormatter RUN_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT);

  @Option(
      names = "--rounds",
      description =
          "Measured rounds per measurement, after one warm-up round (default: ${DEFAULT-VALUE}).")
  int rounds = 7;

  @Option(
      names = "--seconds",
      description = "Seconds per side per round (default: ${DEFAULT-VALUE}).")
  int seconds = 5;

  @Option(
      names = "--load-warm-up-seconds",
      description =
          "Seconds per side of the warm-up round of each loadTable measurement: long enough for"
              + " both servers to reach their steady state (the reference's loads read S3 and"
              + " take longest to warm up) (default: ${DEFAULT-VALUE}).")
  int loadWarmUpSeconds = 30;

  @Option(
      names = "--commit-seconds",
      description =
          "Seconds per side per round of the commit benchmarks, where contention makes rounds"
              + " noisier (default: ${DEFAULT-VALUE}).")
  int commitSeconds = 10;

  @Option(
      names = "--min-ops",
      description =
          "Operations per side per round even if they take longer than --seconds, up to 4 times as"
              + " long (default: ${DEFAULT-VALUE}).")
  int minOperations = 20;

  @Option(
      names = "--max-ops",
      description = "At most this many operations per side per round (default: ${DEFAULT-VALUE}).")
  int maxOperations = 50_000;

  @Option(
      names = "--snapshots",
      description = "Snapshots of the large table (default: ${DEFAULT-VALUE}).")
  int snapshots = 5_000;

  @Option(
      names = "--list-tables",
      description = "Tables in the listed namespace (default: ${DEFAULT-VALUE}).")
  int listTables = 10_000;

  @Option(
      names = "--listed",
      description =
          "Tables of one namespace, and namespaces under one parent, each listed whole with the"
              + " client's page size and with the server's default (default: ${DEFAULT-VALUE}).")
  int listed = 2_000;

  @Option(
      names = "--page-size",
      description = "The clients' rest-page-size (default: ${DEFAULT-VALUE}).")
  int pageSize = 100;

  @Option(
      names = "--create-clients",
      description = "Concurrent clients creating the listed tables (default: ${DEFAULT-VALUE}).")
  int createClients = 4;

  @Option(
      names = "--writers",
      split = ",",
      description = "Concurrent writers of the commit benchmarks (default: ${DEFAULT-VALUE}).")
  List<Integer> writers = List.of(1, 4, 16);

  @Option(
      names = "--planning-files",
      split = ",",
      description =
          "Data files of the tables whose scans are planned, 100 to a manifest (default:"
              + " ${DEFAULT-VALUE}).")
  List<Integer> planningFiles = List.of(10_000, 100_000);

  @Option(
      names = "--snapshot-curve",
      split = ",",
      description =
          "Snapshots of the tables whose loads make the scale curve (default: ${DEFAULT-VALUE}).")
  List<Integer> snapshotCurve = List.of(10, 1_000, 10_000);

  @Option(
      names = "--table-curve",
      split = ",",
      description =
          "Tables of the namespaces whose listings make the scale curve, the first created"
              + " through the API on both sides and the others inserted in bulk (default:"
              + " ${DEFAULT-VALUE}).")
  List<Integer> tableCurve = List.of(100, 10_000, 100_000);

  @Option(
      names = "--cold-inits",
      description = "Cold inits of the read handler (default: ${DEFAULT-VALUE}).")
  int coldInits = 5;

  @Option(
      names = "--cold-init-peer-jar",
      description =
          "Another functions jar (e.g. one built from main) whose cold init is measured"
              + " interleaved with this checkout's functions/target/puddle-functions.jar.")
  Path coldInitPeerJar;

  @Option(
      names = "--reference-connections",
      description =
          "The reference JdbcCatalog's connection pool, as many as the twin's (default:"
              + " ${DEFAULT-VALUE}).")
  int referenceConnections = 16;

  @Option(
      names = "--server-output",
      description =
          "Keep the servers' standard output in their logs, with the line Puddle logs per request"
              + " (default: standard error only; a file of those lines costs the twin disk"
              + " writeback while it is measured, which a Lambda function's log pipe does not).")
  boolean keepServerOutput;

  @Option(
      names = "--only",
      split = ",",
      description = "Run only these measurements: ${COMPLETION-CANDIDATES} (default: all).")
  Set<SideBySide.Part> only = EnumSet.allOf(SideBySide.Part.class);

  @Option(
      names = "--quick",
      description =
          "A short run while iterating, not a record: 2 rounds of 1 s per side (3 s for commits and"
              + " the loads' warm-up), overriding --rounds, --seconds, --commit-seconds and"
              + " --load-warm-up-seconds.")
  boolean quick;

  @Option(
      names = "--project-dir",
      description = "The Puddle checkout (default: the one this jar was built in).")
  Path projectDirectory;

  @Option(
      names = "--results-dir",
      description =
          "Where the report goes, as <the run's UTC date>.md (default: docs/benchmarks/results of"
              + " the checkout). A second run of the same date gets <date>-2.md, and so on.")
  Path resultsDirectory;

  @Option(
      names = "--keep-data",
      description = "Keep the run's PostgreSQL and S3 data under bench/target/runs.")
  boolean keepData;

  @Spec CommandSpec spec;

  public static void main(String[] args) {
    // the client logs every table it creates and every conflict it retries; progress lines and
    // the report say what matters
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    System.exit(
        new CommandLine(new Benchmarks()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path project = projectDirectory != null ? projectDirectory : ownCheckout();
    Path benchTarget = project.resolve("bench/target");
    Path twinJar = project.resolve("local/target/puddle-local.jar");
    if (!Files.isRegularFile(twinJar)) {
      throw new IllegalStateException(
          twinJar
              + " is missing: build it with ./mvnw -q -B -pl local,bench -am package -DskipTests");
    }
    if (quick) {
      rounds = 2;
      seconds = 1;
      commitSeconds = 3;
      loadWarmUpSeconds = 3;
    }
    Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Path run = benchTarget.resolve("runs/" + started.toString().replace(':', '-'));
    Files.createDirectories(run);
    Machine machine = Machine.now();
    Report report = new Report(setup(started));
    boolean wrongListing;
    SideBySide.Settings settings =
        new SideBySide.Settings(
            rounds,
            new Budget(Duration.ofSeconds(seconds), minOperations, maxOperations),
            new Budget(Duration.ofSeconds(loadWarmUpSeconds), minOperations, Integer.MAX_VALUE),
            new Budget(Duration.ofSeconds(commitSeconds), minOperations, maxOperations),
            snapshots,
            listTables,
            listed,
            pageSize,
            createClients,
            writers,
            planningFiles,
            snapshotCurve,
            tableCurve,
            only);

    try (Catalogs catalogs =
        Catalogs.start(twinJar, referenceConnections, pageSize, keepServerOutput, run)) {
      SideBySide sideBySide =
          new SideBySide(
              settings, catalogs.twin(), catalogs.puddle(), catalogs.reference(), report);
      sideBySide.run();
      wrongListing = sideBySide.sawWrongListing();
      roundTrips(report, catalogs);
      if (only.contains(SideBySide.Part.COLD_INIT)) {
        coldInit(report, catalogs, project, run);
      }
    }
    if (!keepData) {
      deleteRecursively(run.resolve("puddle-data"));
    }
    report.costs(OperationCosts.read(project));
    report.artifacts(ArtifactSizes.measure(project, functionsClassPath(benchTarget)));

    String title = "Benchmark run of " + RUN_TIME.format(started.atOffset(ZoneOffset.UTC));
    String markdown = report.toMarkdown(title, command(), machine.finished());
    Path results =
        resultsFile(
            resultsDirectory != null ? resultsDirectory : project.resolve(RESULTS),
            LocalDate.ofInstant(started, ZoneOffset.UTC));
    Files.writeString(results, markdown);
    if (resultsDirectory == null && !LatestLink.update(project, results)) {
      Progress.report("README.md has no [latest run: …](docs/benchmarks/results/…) link to move");
    }
    System.out.println(markdown);
    Progress.report("written to " + results + "; logs in " + run.resolve("logs"));
    if (wrongListing) {
      Progress.report("FAILED: a listing gave a caller other tables than it may see");
      return 1;
    }
    return 0;
  }

  /** {@code <date>.md} in {@code directory}, or {@code <date>-2.md}… if it is taken. */
  private static Path resultsFile(Path directory, LocalDate date) throws IOException {
    Files.createDirectories(directory);
    Path file = directory.resolve(date + ".md");
    for (int n = 2; Files.exists(file); n++) {
      file = directory.resolve(date + "-" + n + ".md");
    }
    return file;
  }

  /** The command line of this run, as the report's reader would repeat it. */
  private String command() {
    List<String> args = spec.commandLine().getParseResult().originalArgs();
    return String.join(
        " ",
        Stream.concat(Stream.of("java -jar bench/target/puddle-bench.jar"), args.stream())
            .toList());
  }

  /**
   * One round trip of each kind every load pays some of, after the measurements, while the twin's
   * PostgreSQL and S3 server are warm from them.
   */
  private static void roundTrips(Report report, Catalogs catalogs) {
    Progress.report("measuring one round trip on loopback");
    try (S3FileIO io = new S3FileIO()) {
      io.initialize(catalogs.reference().clientProperties());
      report.roundTrips(
          RoundTrips.measure(
              catalogs.twin().jdbcUrl("postgres"),
              io,
              "s3://" + PuddleTwin.BUCKET + "/bench-round-trip/object"));
    } catch (RuntimeException e) {
      Progress.report("round trips failed: " + e);
      report.failed("round trips", e);
    }
  }

  /**
   * The read handler's cold init on this checkout's Lambda jar (and the peer jar, if given,
   * interleaved with it), while the twin's PostgreSQL and S3 are up and otherwise idle.
   */
  private void coldInit(Report report, Catalogs catalogs, Path project, Path run) {
    Progress.report("measuring the read handler's cold init");
    Path own = project.resolve("functions/target/puddle-functions.jar");
    List<Path> jars = coldInitPeerJar == null ? List.of(own) : List.of(own, coldInitPeerJar);
    try {
      for (Path jar : jars) {
        if (!Files.isRegularFile(jar)) {
          throw new IllegalStateException(jar + " is missing");
        }
      }
      List<List<ColdInit.Sample>> durations =
          new ColdInit(
                  project.resolve("bench/target/puddle-bench-cold-init.jar"), catalogs.twin(), run)
              .measure(jars, SideBySide.SMALL, coldInits);
      report.coldInits(
          new Report.ColdInits(
              own,
              durations.getFirst(),
              coldInitPeerJar,
              durations.size() > 1 ? durations.get(1) : List.of()));
    } catch (RuntimeException e) {
      Progress.report("cold init failed: " + e);
      report.failed("cold init of the read handler", e);
    }
  }

  private String setup(Instant started) {
    return String.format(
        Locale.ROOT,
        "Run of %s: %d measured rounds after one warm-up round, %d s per side per round (%d s for"
            + " commits; at least %d, at most %,d operations; the warm-up round of a loadTable"
            + " measurement lasts %d s per side), interleaved Puddle, reference,"
            + " Puddle, reference… **Puddle**: the local twin (`local/target/puddle-local.jar`,"
            + " with its embedded PostgreSQL 17 and S3Proxy, behind Jetty as API Gateway's"
            + " stand-in, with TCP_NODELAY as Jetty has by default). **Reference**: Apache Iceberg"
            + " %s `RESTCatalogServer`"
            + " (iceberg-open-api test fixtures) with a `JdbcCatalog` (%d connections) on database"
            + " `reference` of the twin's PostgreSQL and its warehouse on the twin's S3. Both are"
            + " child JVMs; the client is Iceberg's `RESTCatalog` with `S3FileIO` and the same"
            + " properties for both, in the runner's JVM. Small table: 4 columns, 1 snapshot;"
            + " large: %,d snapshots (metadata built, written to S3 and registered). Commits append"
            + " one data file each; writers retry conflicts as the client does by default (4"
            + " retries).",
        started,
        rounds,
        seconds,
        commitSeconds,
        minOperations,
        maxOperations,
        loadWarmUpSeconds,
        IcebergBuild.version(),
        referenceConnections,
        snapshots);
  }

  /** The checkout whose {@code bench/target} holds this jar. */
  private static Path ownCheckout() throws URISyntaxException {
    Path location =
        Path.of(Benchmarks.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    for (Path dir = location; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("bench"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "Cannot find the Puddle checkout of " + location + "; pass --project-dir");
  }

  /** The functions module's runtime class path, as the build copied it. */
  private static List<Path> functionsClassPath(Path benchTarget) throws IOException {
    try (Stream<Path> jars = Files.list(benchTarget.resolve("cold-init-lib"))) {
      return jars.sorted().toList();
    }
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
