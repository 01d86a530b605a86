package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Planning a full scan of a table of many data files, as the client sees it: {@code
 * newScan().planFiles()} and every task read. The table carries {@code scan-planning-mode=server},
 * which Puddle passes on in its load responses, so Iceberg's client plans through Puddle (first
 * page, then every plan task) and reads no manifest; the reference server passes no such config, so
 * there the client reads the manifest list and every manifest itself. The table is loaded outside
 * the timed part.
 *
 * <p>A table over the warehouse's {@code scan-planning.async-data-files} (50,000 by default) is
 * planned by Puddle's planning worker: the client's plan is then its {@code planTableScan} answered
 * {@code submitted}, its polls of {@code fetchPlanningResult} until the worker has stored the
 * pages, and a {@code fetchScanTasks} per page; all of it is timed, as the client waits for all of
 * it.
 *
 * <p>Puddle keeps the answer of a one-page plan for the same request on the same version of the
 * table, so a repeated plan is answered without planning. A {@link Repeat#FIRST} trial therefore
 * asks a request no server has seen before each time: its filter ({@code id != -n}, which no file's
 * statistics can rule out, so every file is still planned, on both sides) differs from plan to
 * plan. A {@link Repeat#SAME} trial asks the same full scan each time, as engines do for every
 * query of a table between two commits.
 */
public final class ScanPlanningLatency implements Trial<Latencies> {
  /** Whether each plan is a request the server has not seen, or the same one every time. */
  public enum Repeat {
    FIRST("a request planned for the first time"),
    SAME("the same request again");

    private final String description;

    Repeat(String description) {
      this.description = description;
    }

    /** How the report names the measurement. */
    public String description() {
      return description;
    }
  }

  private final TableIdentifier table;
  private final int files;
  private final Budget budget;
  private final Repeat repeat;
  private long plans;

  public ScanPlanningLatency(TableIdentifier table, int files, Budget budget, Repeat repeat) {
    this.table = table;
    this.files = files;
    this.budget = budget;
    this.repeat = repeat;
  }

  /**
   * Creates the table with {@code files} data files, {@code perManifest} to a manifest, in one
   * append: the manifests are written here, as an engine's writer writes them, and committed
   * together, so that a table of 1,000 manifests takes one commit rather than 1,000.
   */
  public static void create(Side side, TableIdentifier table, int files, int perManifest) {
    Table created =
        side.client()
            .createTable(
                table,
                Tables.SCHEMA,
                PartitionSpec.unpartitioned(),
                Map.of("scan-planning-mode", "server"));
    int formatVersion = ((HasTableOperations) created).operations().current().formatVersion();
    AppendFiles append = created.newFastAppend();
    for (int done = 0; done < files; done += perManifest) {
      ManifestWriter<DataFile> writer =
          ManifestFiles.write(
              formatVersion,
              created.spec(),
              created
                  .io()
                  .newOutputFile(
                      created.location() + "/metadata/" + UUID.randomUUID() + "-m0.avro"),
              null);
      try (writer) {
        for (int i = done; i < Math.min(files, done + perManifest); i++) {
          writer.add(Tables.fakeDataFile(created));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      append.appendManifest(writer.toManifestFile());
    }
    append.commit();
  }

  /** One more plan of the table, untimed, e.g. to watch the server's heap while it plans. */
  public void planOnce(Side side) {
    Table loaded = side.client().loadTable(table);
    int planned = planAll(loaded);
    if (planned != files) {
      throw new IllegalStateException(side + " planned " + planned + " of " + files + " files");
    }
  }

  private int planAll(Table loaded) {
    TableScan scan = loaded.newScan();
    if (repeat == Repeat.FIRST) {
      // the bench's data files carry no column statistics, so the filter rules none of them out
      scan = scan.filter(Expressions.notEqual("id", -(++plans)));
    }
    int planned = 0;
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask ignored : tasks) {
        planned++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return planned;
  }

  @Override
  public Latencies run(Side side, int round) {
    RESTCatalog client = side.client();
    Table loaded = client.loadTable(table);
    List<Long> nanos = new ArrayList<>();
    long started = System.nanoTime();
    while (budget.more(started, nanos.size())) {
      long start = System.nanoTime();
      int planned = planAll(loaded);
      nanos.add(System.nanoTime() - start);
      if (planned != files) {
        throw new IllegalStateException(side + " planned " + planned + " of " + files + " files");
      }
    }
    return Latencies.of(nanos);
  }
}
