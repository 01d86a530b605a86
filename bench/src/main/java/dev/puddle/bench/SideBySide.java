package dev.puddle.bench;

import dev.puddle.bench.measure.AccessAtScale;
import dev.puddle.bench.measure.AccessRealm;
import dev.puddle.bench.measure.Budget;
import dev.puddle.bench.measure.BulkTables;
import dev.puddle.bench.measure.CommitRun;
import dev.puddle.bench.measure.CommitThroughput;
import dev.puddle.bench.measure.Comparison;
import dev.puddle.bench.measure.CreateTableLatency;
import dev.puddle.bench.measure.Interleaved;
import dev.puddle.bench.measure.Interleaved.Round;
import dev.puddle.bench.measure.Latencies;
import dev.puddle.bench.measure.ListingLatency;
import dev.puddle.bench.measure.LoadTableLatency;
import dev.puddle.bench.measure.ManySnapshots;
import dev.puddle.bench.measure.NamespaceListing;
import dev.puddle.bench.measure.RawCommitLatency;
import dev.puddle.bench.measure.RawCommitThroughput;
import dev.puddle.bench.measure.ScanPlanningLatency;
import dev.puddle.bench.measure.Tables;
import dev.puddle.bench.measure.Trial;
import dev.puddle.bench.measure.TwinHeap;
import dev.puddle.bench.process.PuddleTwin;
import dev.puddle.bench.process.ReferenceServer;
import dev.puddle.bench.report.Report;
import dev.puddle.core.planning.PlanningSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The measurements that compare Puddle with the reference server, each interleaved over the same
 * rounds, each added to the report as ratios Puddle/reference. A measurement that fails is reported
 * as not measured; the others still run.
 */
public final class SideBySide {
  public static final Namespace BENCH = Namespace.of("bench");
  public static final TableIdentifier SMALL = TableIdentifier.of(BENCH, "small");

  private static final Namespace CREATES = Namespace.of("creates");
  private static final Namespace COMMITS = Namespace.of("commits");
  private static final Namespace LISTING = Namespace.of("listing");
  private static final TableIdentifier MANY_SNAPSHOTS = TableIdentifier.of(BENCH, "many_snapshots");

  /** Data files per manifest of the tables whose scans are planned. */
  private static final int FILES_PER_MANIFEST = 100;

  /** The data files up to which the twin's default warehouse plans a scan within its request. */
  private static final long PLANNED_IN_REQUEST = PlanningSettings.DEFAULT_ASYNC_DATA_FILES;

  private static final Duration POPULATE_TIMEOUT = Duration.ofMinutes(30);

  /**
   * How much to measure.
   *
   * @param rounds measured rounds per measurement, after one warm-up round
   * @param budget one side's share of one round
   * @param loadWarmUp one side's share of the warm-up round of a load measurement
   * @param commitBudget the same for the commit benchmarks
   * @param snapshots snapshots of the large table
   * @param listTables tables in the listed namespace
   * @param listed entries of each whole listing measured with and without the client's page size
   * @param pageSize the clients' page size, for the report
   * @param createClients concurrent clients creating the listed tables
   * @param writers the numbers of concurrent writers to commit with
   * @param planningFiles data files of each table whose scans are planned
   * @param snapshotCurve the snapshot counts of the tables whose loads make the scale curve
   * @param tableCurve the table counts of the namespaces whose listings make the scale curve
   * @param only the measurements to run
   */
  public record Settings(
      int rounds,
      Budget budget,
      Budget loadWarmUp,
      Budget commitBudget,
      int snapshots,
      int listTables,
      int listed,
      int pageSize,
      int createClients,
      List<Integer> writers,
      List<Integer> planningFiles,
      List<Integer> snapshotCurve,
      List<Integer> tableCurve,
      Set<Part> only) {}

  /** What can be measured, for {@code --only}. */
  public enum Part {
    LOADS,
    CREATES,
    COMMITS,
    RAW_COMMITS,
    LISTINGS,
    LISTING,
    CURVES,
    PLANNING,
    ACCESS_SCALE,
    COLD_INIT
  }

  private final Settings settings;
  private final PuddleTwin twin;
  private final Side puddle;
  private final Side reference;
  private final Report report;
  private boolean wrongListing;

  public SideBySide(
      Settings settings, PuddleTwin twin, Side puddle, Side reference, Report report) {
    this.settings = settings;
    this.twin = twin;
    this.puddle = puddle;
    this.reference = reference;
    this.report = report;
  }

  /** Prepares both sides, then runs every measurement. */
  public void run() throws Exception {
    for (Side side : List.of(puddle, reference)) {
      Progress.report("preparing " + side);
      prepare(side);
    }
    if (settings.only().contains(Part.LOADS)) {
      loads(SMALL, "small table");
      loads(MANY_SNAPSHOTS, String.format(Locale.ROOT, "%,d-snapshot table", settings.snapshots()));
    }
    if (settings.only().contains(Part.CREATES)) {
      creates();
    }
    if (settings.only().contains(Part.COMMITS)) {
      commits();
    }
    if (settings.only().contains(Part.RAW_COMMITS)) {
      rawCommits();
    }
    if (settings.only().contains(Part.LISTINGS)) {
      listings();
    }
    if (settings.only().contains(Part.LISTING)) {
      listing();
    }
    if (settings.only().contains(Part.PLANNING)) {
      planning();
    }
    if (settings.only().contains(Part.CURVES)) {
      curves();
    }
    if (settings.only().contains(Part.ACCESS_SCALE)) {
      accessAtScale();
    }
  }

  /**
   * The same caller's loads, raw commits and listings in a realm with 10,000 principals, 1,000
   * principal roles, 5,000 catalog roles and 100,000 grants, and in a realm holding only the
   * caller's own grants: Puddle against itself, so the ratio is what the crowd of access rows costs
   * every request.
   */
  private void accessAtScale() {
    AccessRealm atScale;
    AccessRealm empty;
    try {
      long started = System.nanoTime();
      Progress.report("seeding the realm at scale and the empty realm");
      atScale =
          AccessRealm.make(
              twin.jdbcUrl(PuddleTwin.DATABASE), "bench_scale", puddle, twin.uri(), true);
      empty =
          AccessRealm.make(
              twin.jdbcUrl(PuddleTwin.DATABASE), "bench_empty", puddle, twin.uri(), false);
      report.accessAtScaleSetup(
          String.format(
              Locale.ROOT,
              "The same caller in two realms of the twin, measured in alternation operation by"
                  + " operation: one with %,d principals, %,d principal roles, %,d catalog roles"
                  + " and %,d grants, and one with only the caller's own grants. Both have one"
                  + " namespace of %,d tables, 1%% of which the caller may see (every listing"
                  + " must give exactly those). Seeding both took %.0f s.",
              AccessRealm.PRINCIPALS,
              AccessRealm.PRINCIPAL_ROLES,
              AccessRealm.CATALOG_ROLES,
              AccessRealm.GRANTS,
              AccessRealm.TABLES,
              (System.nanoTime() - started) / 1e9));
    } catch (Exception e) {
      Progress.report("seeding the access realms failed: " + e);
      report.failed("access at scale", e);
      return;
    }
    record Measured(String name, AccessAtScale.Operation operation, Budget warmUp) {}
    for (Measured m :
        List.of(
            new Measured(
                "access at scale: loadTable", AccessAtScale.loads(), settings.loadWarmUp()),
            new Measured(
                "access at scale: updateTable, raw", AccessAtScale.commits(), settings.budget()),
            new Measured(
                String.format(
                    Locale.ROOT,
                    "access at scale: listTables, %,d tables, %,d visible, pages of %d",
                    AccessRealm.TABLES,
                    AccessRealm.visibleTables().size(),
                    settings.pageSize()),
                AccessAtScale.listings(),
                settings.budget()))) {
      attempt(
          m.name(),
          name ->
              report.addAccessAtScale(
                  Comparison.of(
                          name + ": p50",
                          "ms",
                          AccessAtScale.run(
                              name,
                              settings.rounds(),
                              atScale.caller(),
                              empty.caller(),
                              m.operation(),
                              settings.budget(),
                              m.warmUp(),
                              Progress::report),
                          Latencies::p50)
                      .withGoal("≤ 1.2x", c -> c.medianRatio() <= 1.2)));
    }
    atScale.caller().close();
    empty.caller().close();
  }

  /**
   * How loads grow with a table's snapshots and listings with a namespace's tables: one p50 per
   * size, each side by side, so the report shows both sides' growth.
   */
  private void curves() {
    for (int snapshots : settings.snapshotCurve()) {
      TableIdentifier table = TableIdentifier.of(BENCH, "curve_" + snapshots + "_snapshots");
      attempt(
          String.format(Locale.ROOT, "scale: loadTable, %,d snapshots", snapshots),
          name -> {
            for (Side side : List.of(puddle, reference)) {
              ManySnapshots.register(side, table, snapshots);
            }
            report.add(
                Comparison.of(
                    name + ": p50",
                    "ms",
                    interleave(
                        name,
                        new LoadTableLatency(table, false, settings.budget(), settings.budget())),
                    Latencies::p50));
          });
    }
    for (int tables : settings.tableCurve()) {
      Namespace namespace = Namespace.of("curve_" + tables + "_tables");
      attempt(
          String.format(
              Locale.ROOT, "scale: listTables, %,d tables, the server's default page size", tables),
          name -> {
            Progress.report(String.format(Locale.ROOT, "inserting %,d tables per side", tables));
            BulkTables.puddle(
                puddle,
                twin.jdbcUrl(PuddleTwin.DATABASE),
                PuddleTwin.REALM,
                PuddleTwin.WAREHOUSE,
                namespace,
                tables);
            BulkTables.reference(
                reference, twin.jdbcUrl(ReferenceServer.DATABASE), namespace, tables);
            report.add(
                Comparison.of(
                    name + ": p50",
                    "ms",
                    interleave(
                        name,
                        // not pages of --page-size: the reference slices its whole listing for
                        // each page, so 100 per page over 100,000 tables take it some 11 minutes
                        new ListingLatency(
                            ListingLatency.Of.TABLES, namespace, tables, false, settings.budget())),
                    Latencies::p50));
          });
    }
  }

  /** The namespaces, the small table (one append) and the table with many snapshots. */
  private void prepare(Side side) throws Exception {
    for (Namespace namespace : List.of(BENCH, CREATES, COMMITS, LISTING)) {
      Tables.ensureNamespace(side.client(), namespace);
    }
    Table small = side.client().createTable(SMALL, Tables.SCHEMA);
    small.newFastAppend().appendFile(Tables.fakeDataFile(small)).commit();
    if (settings.only().contains(Part.LOADS)) {
      ManySnapshots.register(side, MANY_SNAPSHOTS, settings.snapshots());
    }
    if (settings.only().contains(Part.PLANNING)) {
      for (int files : settings.planningFiles()) {
        ScanPlanningLatency.create(side, manyFiles(files), files, FILES_PER_MANIFEST);
      }
    }
  }

  private static TableIdentifier manyFiles(int files) {
    return TableIdentifier.of(BENCH, "many_files_" + files);
  }

  /**
   * Server-side planning through Puddle against the client planning for itself, for each size; then
   * one more plan through Puddle while the twin's heap is watched, the planning worker's for a
   * table the worker plans.
   */
  private void planning() {
    for (int files : settings.planningFiles()) {
      String table =
          String.format(
              Locale.ROOT,
              "%,d data files in %,d manifests (Puddle: server-side)",
              files,
              (files + FILES_PER_MANIFEST - 1) / FILES_PER_MANIFEST);
      for (ScanPlanningLatency.Repeat repeat : ScanPlanningLatency.Repeat.values()) {
        ScanPlanningLatency plan =
            new ScanPlanningLatency(manyFiles(files), files, settings.budget(), repeat);
        attempt(
            "planFiles, " + repeat.description() + ", " + table,
            name -> {
              List<Round<Latencies>> plans = interleave(name, plan);
              Comparison p50 = Comparison.of(name + ": p50", "ms", plans, Latencies::p50);
              // the goal is the plan of a request no server has answered before
              report.add(
                  repeat == ScanPlanningLatency.Repeat.FIRST
                      ? p50.withGoal("< 1x", c -> c.medianRatio() < 1)
                      : p50);
              report.add(Comparison.of(name + ": p99", "ms", plans, Latencies::p99));
            });
      }
      ScanPlanningLatency trial =
          new ScanPlanningLatency(
              manyFiles(files), files, settings.budget(), ScanPlanningLatency.Repeat.FIRST);
      attempt(
          String.format(Locale.ROOT, "the twin's heap while it plans %,d data files", files),
          name -> {
            try (TwinHeap heap = TwinHeap.connect(twin.jmxUrl())) {
              TwinHeap.Peak peak = heap.watch(() -> trial.planOnce(puddle));
              Progress.report(name + ": " + peak);
              report.note(
                  String.format(
                      Locale.ROOT,
                      "The twin's heap (read over its JMX connector) while Puddle planned the"
                          + " %,d-file table once more for the client, %s: %s.",
                      files,
                      files > PLANNED_IN_REQUEST
                          ? "by its planning worker (submitted, then fetched page by page)"
                          : "within the planTableScan request",
                      peak));
            }
          });
    }
  }

  private void loads(TableIdentifier table, String description) {
    attempt(
        "loadTable, " + description,
        name -> {
          List<Round<Latencies>> full =
              interleave(
                  name,
                  new LoadTableLatency(table, false, settings.budget(), settings.loadWarmUp()));
          report.add(
              Comparison.of(name + ": p50", "ms", full, Latencies::p50)
                  .withGoal("≤ 0.5x", c -> c.medianRatio() <= 0.5));
          report.add(Comparison.of(name + ": p99", "ms", full, Latencies::p99));
        });
    attempt(
        "loadTable revalidated (If-None-Match), " + description,
        name -> {
          List<Round<Latencies>> revalidated =
              interleave(
                  name,
                  new LoadTableLatency(table, true, settings.budget(), settings.loadWarmUp()));
          report.add(Comparison.of(name + ": p50", "ms", revalidated, Latencies::p50));
        });
  }

  private void creates() {
    attempt(
        "createTable",
        name -> {
          List<Round<Latencies>> creates =
              interleave(name, new CreateTableLatency(CREATES, settings.budget()));
          report.add(Comparison.of(name + ": p50", "ms", creates, Latencies::p50));
          report.add(Comparison.of(name + ": p99", "ms", creates, Latencies::p99));
        });
  }

  private void commits() {
    for (boolean distinct : List.of(false, true)) {
      for (int writers : settings.writers()) {
        if (distinct && writers == 1) {
          continue; // one writer on a table of its own is the one-table case again
        }
        String label =
            writers
                + (writers == 1 ? " writer, " : " writers, ")
                + (distinct ? "a table each" : "one table");
        attempt(
            "commit throughput, " + label,
            name -> {
              Trial<CommitRun> trial =
                  new CommitThroughput(COMMITS, writers, distinct, settings.commitBudget());
              List<Round<CommitRun>> runs = interleave(name, trial);
              Report.CommitDetail detail = new Report.CommitDetail(label, runs);
              Comparison throughput =
                  Comparison.of(name, "commits/s", runs, CommitRun::commitsPerSecond);
              boolean intact = detail.lost(true) == 0 && detail.phantoms(true) == 0;
              report.add(
                  distinct
                      ? throughput.withGoal("0 lost", c -> intact)
                      : throughput.withGoal("≥ 1x, 0 lost", c -> c.medianRatio() >= 1 && intact));
              report.add(detail);
            });
      }
    }
  }

  /** The server's part of a commit alone: raw {@code updateTable} requests, no client files. */
  private void rawCommits() {
    attempt(
        "updateTable, raw (a prepared append)",
        name -> {
          List<Round<Latencies>> commits =
              interleave(name, new RawCommitLatency(COMMITS, settings.budget()));
          report.add(
              Comparison.of(name + ": p50", "ms", commits, Latencies::p50)
                  .withGoal("≤ 0.7x", c -> c.medianRatio() <= 0.7));
          report.add(Comparison.of(name + ": p99", "ms", commits, Latencies::p99));
        });
    int writers = settings.writers().stream().max(Integer::compare).orElse(16);
    for (RawCommitThroughput.Retry retry : RawCommitThroughput.Retry.values()) {
      attempt(
          "updateTable throughput, raw, " + writers + " writers, one table, " + retry.label(),
          name -> {
            Comparison throughput =
                Comparison.of(
                    name,
                    "commits/s",
                    interleave(
                        name,
                        new RawCommitThroughput(COMMITS, writers, retry, settings.commitBudget())),
                    Double::doubleValue);
            // the goal is for writers that behave as Iceberg's; the other shows the herd
            report.add(
                retry == RawCommitThroughput.Retry.AS_ICEBERGS_CLIENT
                    ? throughput.withGoal("≥ 1.2x", c -> c.medianRatio() >= 1.2)
                    : throughput);
          });
    }
  }

  /** Listings of 2,000 tables and of 2,000 namespaces, paged by the client and by the server. */
  private void listings() {
    for (ListingLatency.Of of : ListingLatency.Of.values()) {
      Namespace parent = Namespace.of("listing_" + of.name().toLowerCase(Locale.ROOT));
      attempt(
          String.format(Locale.ROOT, "making %,d %s", settings.listed(), of),
          name -> {
            for (Side side : List.of(puddle, reference)) {
              Progress.report(name + " in " + side);
              ListingLatency.populate(
                  side, of, parent, settings.listed(), settings.createClients());
            }
          });
      for (boolean paged : List.of(false, true)) {
        attempt(
            String.format(
                Locale.ROOT,
                "%s, %,d entries, %s",
                of == ListingLatency.Of.TABLES ? "listTables" : "listNamespaces",
                settings.listed(),
                paged ? "pages of " + settings.pageSize() : "the server's default page size"),
            name -> {
              List<Round<Latencies>> listings =
                  interleave(
                      name,
                      new ListingLatency(of, parent, settings.listed(), paged, settings.budget()));
              report.add(
                  Comparison.of(name + ": p50", "ms", listings, Latencies::p50)
                      .withGoal("≤ 0.5x", c -> c.medianRatio() <= 0.5));
              report.add(
                  Comparison.of(name + ": p99", "ms", listings, Latencies::p99)
                      .withGoal("≤ 0.5x", c -> c.medianRatio() <= 0.5));
            });
      }
    }
  }

  private void listing() {
    attempt(
        String.format(
            Locale.ROOT,
            "listTables, %,d tables, pages of %d",
            settings.listTables(),
            settings.pageSize()),
        name -> {
          NamespaceListing listing =
              new NamespaceListing(LISTING, settings.listTables(), settings.budget());
          List<String> took = new ArrayList<>();
          for (Side side : List.of(puddle, reference)) {
            Progress.report(
                String.format(
                    Locale.ROOT, "creating %,d tables in %s", settings.listTables(), side));
            Duration duration = listing.populate(side, settings.createClients(), POPULATE_TIMEOUT);
            took.add(String.format(Locale.ROOT, "%s %.0f s", side, duration.toMillis() / 1e3));
          }
          report.note(
              String.format(
                  Locale.ROOT,
                  "Creating the %,d listed tables with %d concurrent clients took %s (one sample"
                      + " each, one side after the other: not a ratio).",
                  settings.listTables(),
                  settings.createClients(),
                  String.join(", ", took)));
          report.add(
              Comparison.of(
                  name, "ms", interleave(name, listing), NamespaceListing.Listings::medianMillis));
        });
  }

  private <T> List<Round<T>> interleave(String name, Trial<T> trial) throws Exception {
    return Interleaved.run(name, settings.rounds(), puddle, reference, trial, Progress::report);
  }

  private void attempt(String name, Measurement measurement) {
    try {
      measurement.run(name);
    } catch (Exception e) {
      Progress.report(name + " failed: " + e);
      report.failed(name, e);
      if (e instanceof AccessAtScale.WrongListing) {
        wrongListing = true;
      }
    }
  }

  /** Whether a listing gave a caller other tables than it may see: the run must fail. */
  public boolean sawWrongListing() {
    return wrongListing;
  }

  /** One measurement, given its name. */
  @FunctionalInterface
  private interface Measurement {
    void run(String name) throws Exception;
  }
}
