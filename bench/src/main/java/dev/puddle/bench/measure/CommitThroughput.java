package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Commit throughput: {@code writers} concurrent engines, each with a client of its own, append one
 * data file per commit, either all to one table or each to a table of its own. Every commit is
 * tagged in its snapshot summary; afterwards each table is loaded afresh and every commit a writer
 * saw succeed must be among its snapshots, or it counts as lost.
 *
 * <p>Writers retry conflicts as Iceberg's client does by default (4 retries with backoff), so on
 * one table some commits fail for good: that is contention, not loss.
 */
public final class CommitThroughput implements Trial<CommitRun> {
  private static final String TAG = "bench.commit";
  private static final long JOIN_GRACE_SECONDS = 120;

  private final Namespace namespace;
  private final int writers;
  private final boolean distinctTables;
  private final Budget budget;

  public CommitThroughput(Namespace namespace, int writers, boolean distinctTables, Budget budget) {
    this.namespace = namespace;
    this.writers = writers;
    this.distinctTables = distinctTables;
    this.budget = budget;
  }

  @Override
  public CommitRun run(Side side, int round) throws Exception {
    List<TableIdentifier> tables = new ArrayList<>();
    for (int i = 0; i < (distinctTables ? writers : 1); i++) {
      TableIdentifier table =
          TableIdentifier.of(
              namespace,
              String.format("w%d_%s_r%d_%d", writers, distinctTables ? "many" : "one", round, i));
      side.client().createTable(table, Tables.SCHEMA);
      tables.add(table);
    }

    Set<String> succeeded = ConcurrentHashMap.newKeySet();
    Set<String> failed = ConcurrentHashMap.newKeySet();
    AtomicInteger attempts = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    List<RESTCatalog> clients = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    long elapsedNanos;
    try {
      CountDownLatch ready = new CountDownLatch(writers);
      CountDownLatch go = new CountDownLatch(1);
      AtomicLong deadline = new AtomicLong();
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        RESTCatalog client = side.newClient();
        clients.add(client);
        Table table = client.loadTable(tables.get(distinctTables ? w : 0));
        String writer = "w" + w;
        done.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  go.await();
                  for (int seq = 0;
                      System.nanoTime() < deadline.get()
                          && attempts.incrementAndGet() <= budget.maxOperations();
                      seq++) {
                    String tag = writer + "-" + seq;
                    try {
                      table
                          .newFastAppend()
                          .appendFile(Tables.fakeDataFile(table))
                          .set(TAG, tag)
                          .commit();
                      succeeded.add(tag);
                    } catch (CommitFailedException e) {
                      failed.add(tag);
                    } catch (RuntimeException e) {
                      errors.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      ready.await();
      long start = System.nanoTime();
      deadline.set(start + budget.duration().toNanos());
      go.countDown();
      for (Future<?> writer : done) {
        writer.get(budget.duration().toSeconds() + JOIN_GRACE_SECONDS, TimeUnit.SECONDS);
      }
      elapsedNanos = System.nanoTime() - start;
    } finally {
      pool.shutdownNow();
      for (RESTCatalog client : clients) {
        closeQuietly(client);
      }
    }

    Set<String> landed = new HashSet<>();
    for (TableIdentifier table : tables) {
      side.client().invalidateTable(table);
      for (Snapshot snapshot : side.client().loadTable(table).snapshots()) {
        String tag = snapshot.summary().get(TAG);
        if (tag != null) {
          landed.add(tag);
        }
      }
    }
    int lost = (int) succeeded.stream().filter(tag -> !landed.contains(tag)).count();
    int phantoms = (int) failed.stream().filter(landed::contains).count();
    return new CommitRun(
        succeeded.size() / (elapsedNanos / 1e9),
        succeeded.size(),
        failed.size(),
        errors.get(),
        lost,
        phantoms);
  }

  private static void closeQuietly(RESTCatalog client) {
    try {
      client.close();
    } catch (IOException e) {
      // the round's results are in; a client that fails to close changes nothing
    }
  }
}
