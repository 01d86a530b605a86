package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Planning a full scan of a table of many data files, as the client sees it: {@code
 * newScan().planFiles()} and every task read. The table carries {@code scan-planning-mode=server},
 * which Puddle passes on in its load responses, so Iceberg's client plans through Puddle (first
 * page, then every plan task) and reads no manifest; the reference server passes no such config, so
 * there the client reads the manifest list and every manifest itself. The table is loaded outside
 * the timed part.
 */
public final class ScanPlanningLatency implements Trial<Latencies> {
  private final TableIdentifier table;
  private final int files;
  private final Budget budget;

  public ScanPlanningLatency(TableIdentifier table, int files, Budget budget) {
    this.table = table;
    this.files = files;
    this.budget = budget;
  }

  /** Creates the table with {@code files} data files, {@code perManifest} to each append. */
  public static void create(Side side, TableIdentifier table, int files, int perManifest) {
    Table created =
        side.client()
            .createTable(
                table,
                Tables.SCHEMA,
                PartitionSpec.unpartitioned(),
                Map.of("scan-planning-mode", "server"));
    for (int done = 0; done < files; done += perManifest) {
      AppendFiles append = created.newFastAppend();
      for (int i = done; i < Math.min(files, done + perManifest); i++) {
        append.appendFile(Tables.fakeDataFile(created));
      }
      append.commit();
    }
  }

  @Override
  public Latencies run(Side side, int round) {
    RESTCatalog client = side.client();
    Table loaded = client.loadTable(table);
    List<Long> nanos = new ArrayList<>();
    long started = System.nanoTime();
    while (budget.more(started, nanos.size())) {
      long start = System.nanoTime();
      int planned = 0;
      try (CloseableIterable<FileScanTask> tasks = loaded.newScan().planFiles()) {
        for (FileScanTask ignored : tasks) {
          planned++;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      nanos.add(System.nanoTime() - start);
      if (planned != files) {
        throw new IllegalStateException(side + " planned " + planned + " of " + files + " files");
      }
    }
    return Latencies.of(nanos);
  }
}
