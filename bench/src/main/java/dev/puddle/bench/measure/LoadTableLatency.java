package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * {@code loadTable} latency, one load at a time, as the client sees it (request, response and
 * parsing the metadata).
 *
 * <p>Iceberg's 1.11 client keeps loaded tables and revalidates them with {@code If-None-Match},
 * which a server may answer with 304. A <em>full</em> load drops the client's cached copy first
 * (outside the timed part), as an engine that has not seen the table does; a <em>revalidation</em>
 * keeps it, so each load is a conditional request.
 */
public final class LoadTableLatency implements Trial<Latencies> {
  private final TableIdentifier table;
  private final boolean revalidate;
  private final Budget budget;
  private final Budget warmUp;

  /**
   * @param budget one side's share of a measured round
   * @param warmUp one side's share of the warm-up round
   */
  public LoadTableLatency(TableIdentifier table, boolean revalidate, Budget budget, Budget warmUp) {
    this.table = table;
    this.revalidate = revalidate;
    this.budget = budget;
    this.warmUp = warmUp;
  }

  @Override
  public Latencies run(Side side, int round) {
    RESTCatalog client = side.client();
    if (revalidate) {
      client.loadTable(table); // the copy every timed load revalidates
    }
    Budget share = round == 0 ? warmUp : budget;
    List<Long> nanos = new ArrayList<>();
    long started = System.nanoTime();
    while (share.more(started, nanos.size())) {
      if (!revalidate) {
        client.invalidateTable(table);
      }
      long start = System.nanoTime();
      client.loadTable(table);
      nanos.add(System.nanoTime() - start);
    }
    return Latencies.of(nanos);
  }
}
