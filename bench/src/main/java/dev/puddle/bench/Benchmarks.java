package dev.puddle.bench;

import dev.puddle.bench.measure.Budget;
import dev.puddle.bench.measure.ColdInit;
import dev.puddle.bench.measure.CommitRun;
import dev.puddle.bench.measure.CommitThroughput;
import dev.puddle.bench.measure.Comparison;
import dev.puddle.bench.measure.CreateTableLatency;
import dev.puddle.bench.measure.Interleaved;
import dev.puddle.bench.measure.Interleaved.Round;
import dev.puddle.bench.measure.Latencies;
import dev.puddle.bench.measure.LoadTableLatency;
import dev.puddle.bench.measure.ManySnapshots;
import dev.puddle.bench.measure.NamespaceListing;
import dev.puddle.bench.measure.Tables;
import dev.puddle.bench.measure.Trial;
import dev.puddle.bench.process.PuddleTwin;
import dev.puddle.bench.process.ReferenceServer;
import dev.puddle.bench.report.ArtifactSizes;
import dev.puddle.bench.report.Machine;
import dev.puddle.bench.report.OperationCosts;
import dev.puddle.bench.report.Report;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.Table;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalogProperties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code java -jar bench/target/puddle-bench.jar}: starts Puddle's local twin and Iceberg's
 * reference REST server side by side, drives both with the same client load, interleaved, and
 * prints the ratios as Markdown (also written to {@code bench/target/results.md}).
 */
@Command(
    name = "puddle-bench",
    mixinStandardHelpOptions = true,
    description =
        "Benchmarks Puddle's local twin against Iceberg's reference REST server, side by side.")
public final class Benchmarks implements Callable<Integer> {
  private static final Namespace BENCH = Namespace.of("bench");
  private static final Namespace CREATES = Namespace.of("creates");
  private static final Namespace COMMITS = Namespace.of("commits");
  private static final Namespace LISTING = Namespace.of("listing");
  private static final TableIdentifier SMALL = TableIdentifier.of(BENCH, "small");
  private static final TableIdentifier MANY_SNAPSHOTS = TableIdentifier.of(BENCH, "many_snapshots");
  private static final Duration POPULATE_TIMEOUT = Duration.ofMinutes(30);

  /**
   * The twin's HTTP front (the JDK's HttpServer, standing in for API Gateway) leaves Nagle's
   * algorithm on unless told otherwise, so every response longer than one TCP segment waits for
   * the client's delayed ACK, about 40 ms: a 100-snapshot loadTable took 48 ms instead of 6.
   * Jetty, in front of the reference server, turns Nagle off; so does this, for the twin.
   */
  private static final List<String> TWIN_JVM_OPTIONS = List.of("-Dsun.net.httpserver.nodelay=true");

  @Option(names = "--rounds", description = "Measured rounds per measurement, after one warm-up round (default: ${DEFAULT-VALUE}).")
  int rounds = 7;

  @Option(names = "--seconds", description = "Seconds per side per round (default: ${DEFAULT-VALUE}).")
  int seconds = 5;

  @Option(names = "--min-ops", description = "Operations per side per round even if they take longer than --seconds, up to 4 times as long (default: ${DEFAULT-VALUE}).")
  int minOperations = 20;

  @Option(names = "--max-ops", description = "At most this many operations per side per round (default: ${DEFAULT-VALUE}).")
  int maxOperations = 50_000;

  @Option(names = "--snapshots", description = "Snapshots of the large table (default: ${DEFAULT-VALUE}).")
  int snapshots = 5_000;

  @Option(names = "--list-tables", description = "Tables in the listed namespace (default: ${DEFAULT-VALUE}).")
  int listTables = 10_000;

  @Option(names = "--page-size", description = "The clients' rest-page-size (default: ${DEFAULT-VALUE}).")
  int pageSize = 100;

  @Option(names = "--create-clients", description = "Concurrent clients creating the listed tables (default: ${DEFAULT-VALUE}).")
  int createClients = 4;

  @Option(names = "--writers", split = ",", description = "Concurrent writers of the commit benchmarks (default: ${DEFAULT-VALUE}).")
  List<Integer> writers = List.of(1, 4, 16);

  @Option(names = "--cold-inits", description = "Cold inits of the read handler (default: ${DEFAULT-VALUE}).")
  int coldInits = 5;

  @Option(names = "--reference-connections", description = "The reference JdbcCatalog's connection pool, as many as the twin's (default: ${DEFAULT-VALUE}).")
  int referenceConnections = 16;

  @Option(names = "--project-dir", description = "The Puddle checkout (default: the one this jar was built in).")
  Path projectDirectory;

  @Option(names = "--keep-data", description = "Keep the run's PostgreSQL and S3 data under bench/target/runs.")
  boolean keepData;

  public static void main(String[] args) {
    // the client logs every table it creates and every conflict it retries; progress lines and
    // the report say what matters
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    System.exit(new CommandLine(new Benchmarks()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path project = projectDirectory != null ? projectDirectory : ownCheckout();
    Path benchTarget = project.resolve("bench/target");
    Path twinJar = project.resolve("local/target/puddle-local.jar");
    if (!Files.isRegularFile(twinJar)) {
      throw new IllegalStateException(
          twinJar + " is missing: build it with ./mvnw -q -B -pl local,bench -am package -DskipTests");
    }
    Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Path run = benchTarget.resolve("runs/" + started.toString().replace(':', '-'));
    Files.createDirectories(run);
    Machine machine = Machine.now();
    Budget budget = new Budget(Duration.ofSeconds(seconds), minOperations, maxOperations);
    Report report = new Report(setup(started));

    Servers servers = new Servers();
    Runtime.getRuntime().addShutdownHook(new Thread(servers::close, "stop-servers"));
    try {
      progress("starting Puddle's local twin");
      servers.twin = PuddleTwin.start(twinJar, TWIN_JVM_OPTIONS, run);
      progress("starting the reference server");
      servers.reference =
          ReferenceServer.start(servers.twin, List.of(), referenceConnections, run);
      Map<String, String> client = clientProperties(servers.twin);
      servers.puddle =
          new Side(
              "Puddle",
              servers.twin.uri(),
              Optional.of(PuddleTwin.WAREHOUSE),
              PuddleTwin.WAREHOUSE_LOCATION,
              client);
      servers.referenceSide =
          new Side(
              "reference",
              servers.reference.uri(),
              Optional.empty(),
              ReferenceServer.WAREHOUSE_LOCATION,
              client);

      for (Side side : List.of(servers.puddle, servers.referenceSide)) {
        progress("preparing " + side);
        prepare(side);
      }
      measureLoads(report, servers.puddle, servers.referenceSide, budget);
      measureCreates(report, servers.puddle, servers.referenceSide, budget);
      measureCommits(report, servers.puddle, servers.referenceSide, budget);
      measureListing(report, servers.puddle, servers.referenceSide, budget);
      measureColdInit(report, servers.twin, benchTarget, run);
    } finally {
      servers.close();
    }
    if (!keepData) {
      deleteRecursively(run.resolve("puddle-data"));
    }

    report.costs(OperationCosts.read(project));
    report.artifacts(ArtifactSizes.measure(project, functionsClassPath(benchTarget)));
    String markdown = report.toMarkdown(machine.finished());
    Files.writeString(benchTarget.resolve("results.md"), markdown);
    System.out.println(markdown);
    progress("written to " + benchTarget.resolve("results.md") + "; logs in " + run.resolve("logs"));
    return 0;
  }

  /** The namespaces, the small table (one append) and the table with many snapshots. */
  private void prepare(Side side) throws Exception {
    for (Namespace namespace : List.of(BENCH, CREATES, COMMITS, LISTING)) {
      Tables.ensureNamespace(side.client(), namespace);
    }
    Table small = side.client().createTable(SMALL, Tables.SCHEMA);
    small.newFastAppend().appendFile(Tables.fakeDataFile(small)).commit();
    ManySnapshots.register(side, MANY_SNAPSHOTS, snapshots);
  }

  private void measureLoads(Report report, Side puddle, Side reference, Budget budget) {
    String many = String.format(Locale.ROOT, "%,d-snapshot table", snapshots);
    for (var table : List.of(Map.entry(SMALL, "small table"), Map.entry(MANY_SNAPSHOTS, many))) {
      attempt(
          report,
          "loadTable, " + table.getValue(),
          name -> {
            List<Round<Latencies>> full =
                Interleaved.run(
                    name, rounds, puddle, reference, new LoadTableLatency(table.getKey(), false, budget), Benchmarks::progress);
            report.add(
                Comparison.of(name + ": p50", "ms", full, Latencies::p50)
                    .withGoal("≤ 0.5x", c -> c.medianRatio() <= 0.5));
            report.add(Comparison.of(name + ": p99", "ms", full, Latencies::p99));
          });
      attempt(
          report,
          "loadTable revalidated (If-None-Match), " + table.getValue(),
          name -> {
            List<Round<Latencies>> revalidated =
                Interleaved.run(
                    name, rounds, puddle, reference, new LoadTableLatency(table.getKey(), true, budget), Benchmarks::progress);
            report.add(Comparison.of(name + ": p50", "ms", revalidated, Latencies::p50));
          });
    }
  }

  private void measureCreates(Report report, Side puddle, Side reference, Budget budget) {
    attempt(
        report,
        "createTable",
        name -> {
          List<Round<Latencies>> creates =
              Interleaved.run(name, rounds, puddle, reference, new CreateTableLatency(CREATES, budget), Benchmarks::progress);
          report.add(Comparison.of(name + ": p50", "ms", creates, Latencies::p50));
          report.add(Comparison.of(name + ": p99", "ms", creates, Latencies::p99));
        });
  }

  private void measureCommits(Report report, Side puddle, Side reference, Budget budget) {
    for (boolean distinct : List.of(false, true)) {
      for (int count : writers) {
        if (distinct && count == 1) {
          continue; // one writer on a table of its own is the one-table case again
        }
        String label =
            count + (count == 1 ? " writer, " : " writers, ") + (distinct ? "a table each" : "one table");
        attempt(
            report,
            "commit throughput, " + label,
            name -> {
              Trial<CommitRun> trial = new CommitThroughput(COMMITS, count, distinct, budget);
              List<Round<CommitRun>> runs =
                  Interleaved.run(name, rounds, puddle, reference, trial, Benchmarks::progress);
              Report.CommitDetail detail = new Report.CommitDetail(label, runs);
              Comparison throughput =
                  Comparison.of(name, "commits/s", runs, CommitRun::commitsPerSecond);
              report.add(
                  distinct
                      ? throughput.withGoal("0 lost", c -> detail.lost(true) == 0)
                      : throughput.withGoal(
                          "≥ 1x, 0 lost", c -> c.medianRatio() >= 1 && detail.lost(true) == 0));
              report.add(detail);
            });
      }
    }
  }

  private void measureListing(Report report, Side puddle, Side reference, Budget budget) {
    String name =
        String.format(Locale.ROOT, "listTables, %,d tables, pages of %d", listTables, pageSize);
    attempt(
        report,
        name,
        measurement -> {
          NamespaceListing listing = new NamespaceListing(LISTING, listTables, budget);
          List<String> took = new ArrayList<>();
          for (Side side : List.of(puddle, reference)) {
            progress(String.format(Locale.ROOT, "creating %,d tables in %s", listTables, side));
            Duration duration = listing.populate(side, createClients, POPULATE_TIMEOUT);
            took.add(String.format(Locale.ROOT, "%s %.0f s", side, duration.toMillis() / 1e3));
          }
          report.note(
              String.format(
                  Locale.ROOT,
                  "Creating the %,d listed tables with %d concurrent clients took %s (one sample"
                      + " each, one side after the other: not a ratio).",
                  listTables,
                  createClients,
                  String.join(", ", took)));
          report.add(
              Comparison.of(
                  measurement,
                  "ms",
                  Interleaved.run(measurement, rounds, puddle, reference, listing, Benchmarks::progress),
                  NamespaceListing.Listings::medianMillis));
        });
  }

  private void measureColdInit(Report report, PuddleTwin twin, Path benchTarget, Path run) {
    attempt(
        report,
        "cold init of the read handler",
        name -> {
          progress("measuring " + name);
          List<Path> classPath =
              Stream.concat(
                      Stream.of(benchTarget.resolve("puddle-bench-cold-init.jar")),
                      functionsClassPath(benchTarget).stream())
                  .toList();
          report.coldInits(new ColdInit(classPath, twin, run).measure(SMALL, coldInits));
        });
  }

  /** A measurement that fails is reported as such; the others still run. */
  private static void attempt(Report report, String name, Measurement measurement) {
    try {
      measurement.run(name);
    } catch (Exception e) {
      progress(name + " failed: " + e);
      report.failed(name, e);
    }
  }

  /** One measurement, given its name. */
  @FunctionalInterface
  private interface Measurement {
    void run(String name) throws Exception;
  }

  /** The same client properties on both sides: the twin's S3 for data and metadata files. */
  private Map<String, String> clientProperties(PuddleTwin twin) {
    return Map.of(
        CatalogProperties.FILE_IO_IMPL, S3FileIO.class.getName(),
        S3FileIOProperties.ENDPOINT, twin.s3Endpoint(),
        S3FileIOProperties.PATH_STYLE_ACCESS, "true",
        S3FileIOProperties.ACCESS_KEY_ID, PuddleTwin.ACCESS_KEY_ID,
        S3FileIOProperties.SECRET_ACCESS_KEY, PuddleTwin.SECRET_ACCESS_KEY,
        AwsClientProperties.CLIENT_REGION, PuddleTwin.REGION,
        RESTCatalogProperties.PAGE_SIZE, String.valueOf(pageSize));
  }

  private String setup(Instant started) {
    return String.format(
        Locale.ROOT,
        "Run of %s: %d measured rounds after one warm-up round, %d s per side per round (at least"
            + " %d, at most %,d operations), interleaved Puddle, reference, Puddle, reference…"
            + " **Puddle**: the local twin (`local/target/puddle-local.jar`, with its embedded"
            + " PostgreSQL 17 and S3Proxy; its JDK HTTP server with TCP_NODELAY, as Jetty has by"
            + " default). **Reference**: Apache Iceberg %s `RESTCatalogServer` (iceberg-open-api"
            + " test fixtures) with a `JdbcCatalog` (%d connections) on database `reference` of the"
            + " twin's PostgreSQL and its warehouse on the twin's S3. Both are child JVMs; the"
            + " client is Iceberg's `RESTCatalog` with `S3FileIO` and the same properties for both,"
            + " in the runner's JVM. Small table: 4 columns, 1 snapshot; large: %,d snapshots"
            + " (metadata built, written to S3 and registered). Commits append one data file each;"
            + " writers retry conflicts as the client does by default (4 retries).",
        started,
        rounds,
        seconds,
        minOperations,
        maxOperations,
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
    throw new IllegalStateException("Cannot find the Puddle checkout of " + location + "; pass --project-dir");
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

  static void progress(String message) {
    System.err.println("[bench " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "] " + message);
  }

  /** The child processes and their clients, stopped once, at the end or on Ctrl-C. */
  private static final class Servers {
    private volatile PuddleTwin twin;
    private volatile ReferenceServer reference;
    private volatile Side puddle;
    private volatile Side referenceSide;
    private boolean closed;

    synchronized void close() {
      if (closed) {
        return;
      }
      closed = true;
      for (AutoCloseable resource : new AutoCloseable[] {puddle, referenceSide, reference, twin}) {
        if (resource != null) {
          try {
            resource.close();
          } catch (Exception e) {
            progress("while stopping: " + e);
          }
        }
      }
    }
  }
}
