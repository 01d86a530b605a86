package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Listing every table of a large namespace, page by page (the client's {@code rest-page-size}): the
 * time of one whole listing, median of the listings a round has time for.
 */
public final class NamespaceListing implements Trial<NamespaceListing.Listings> {
  private final Namespace namespace;
  private final int tables;
  private final Budget budget;

  public NamespaceListing(Namespace namespace, int tables, Budget budget) {
    this.namespace = namespace;
    this.tables = tables;
    this.budget = budget;
  }

  /**
   * Fills the namespace with {@code tables} tables, created by {@code clients} concurrent clients,
   * none taking longer than {@code timeout}; returns how long it took.
   */
  public Duration populate(Side side, int clients, Duration timeout) throws Exception {
    long started = System.nanoTime();
    Tables.ensureNamespace(side.client(), namespace);
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int first = c;
        done.add(
            pool.submit(
                () -> {
                  try (RESTCatalog client = side.newClient()) {
                    for (int i = first; i < tables; i += clients) {
                      client.createTable(TableIdentifier.of(namespace, "t" + i), Tables.SCHEMA);
                    }
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                  return null;
                }));
      }
      long deadline = started + timeout.toNanos();
      for (Future<?> client : done) {
        client.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
      return Duration.ofNanos(System.nanoTime() - started);
    } finally {
      pool.shutdownNow();
    }
  }

  @Override
  public Listings run(Side side, int round) {
    List<Double> millis = new ArrayList<>();
    long started = System.nanoTime();
    // at least one listing, however long it takes
    do {
      long start = System.nanoTime();
      int listed = side.client().listTables(namespace).size();
      millis.add((System.nanoTime() - start) / 1e6);
      if (listed != tables) {
        throw new IllegalStateException(
            side + " listed " + listed + " tables in " + namespace + ", not " + tables);
      }
    } while (budget.more(started, millis.size()));
    return new Listings(Stats.median(millis), millis.size());
  }

  /** One side's listings in one round: the median time of a whole listing. */
  public record Listings(double medianMillis, int count) {
    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%.1f ms per listing (%d listings)", medianMillis, count);
    }
  }
}
