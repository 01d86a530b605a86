package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Listing {@code entries} tables of one namespace, or {@code entries} namespaces under one parent,
 * whole, one listing at a time: with the client's {@code rest-page-size} or with none (the server's
 * default page size). Each listing must return exactly the entries made.
 */
public final class ListingLatency implements Trial<Latencies> {
  /** What is listed. */
  public enum Of {
    TABLES,
    NAMESPACES
  }

  private final Of of;
  private final Namespace parent;
  private final int entries;
  private final boolean paged;
  private final Budget budget;

  /**
   * @param paged whether the client sends its {@code rest-page-size}, or no page size at all
   */
  public ListingLatency(Of of, Namespace parent, int entries, boolean paged, Budget budget) {
    this.of = of;
    this.parent = parent;
    this.entries = entries;
    this.paged = paged;
    this.budget = budget;
  }

  /** Makes the entries, with {@code clients} concurrent clients. */
  public static void populate(Side side, Of of, Namespace parent, int entries, int clients)
      throws Exception {
    Tables.ensureNamespace(side.client(), parent);
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int first = c;
        done.add(
            pool.submit(
                () -> {
                  try (RESTCatalog client = side.newClient()) {
                    for (int i = first; i < entries; i += clients) {
                      if (of == Of.TABLES) {
                        client.createTable(TableIdentifier.of(parent, "t" + i), Tables.SCHEMA);
                      } else {
                        client.createNamespace(Namespace.of(parent.level(0), "n" + i));
                      }
                    }
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                  return null;
                }));
      }
      for (Future<?> client : done) {
        client.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Override
  public Latencies run(Side side, int round) {
    RESTCatalog client = paged ? side.client() : side.unpagedClient();
    List<Long> nanos = new ArrayList<>();
    long started = System.nanoTime();
    do {
      long start = System.nanoTime();
      int listed =
          of == Of.TABLES ? client.listTables(parent).size() : client.listNamespaces(parent).size();
      nanos.add(System.nanoTime() - start);
      if (listed != entries) {
        throw new IllegalStateException(
            side + " listed " + listed + " " + of + " in " + parent + ", not " + entries);
      }
    } while (budget.more(started, nanos.size()));
    return Latencies.of(nanos);
  }
}
