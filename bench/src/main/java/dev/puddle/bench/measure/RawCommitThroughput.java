package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.util.Tasks;

/**
 * The server's part of commits under contention: {@code writers} clients commit raw appends ({@link
 * PreparedAppend}) to one table as fast as they can, each trying again on a conflict as {@link
 * Retry} says. Afterwards the table must hold exactly as many snapshots as commits succeeded, else
 * the run fails: a lost commit is never a throughput.
 */
public final class RawCommitThroughput implements Trial<Double> {
  private static final long JOIN_GRACE_SECONDS = 120;

  /** How a writer tries again after a conflict. */
  public enum Retry {
    /**
     * As Iceberg's client does for an append by default ({@code SnapshotProducer}, the table's
     * {@code commit.retry.*} defaults, with iceberg-core's own {@link Tasks}): each attempt
     * refreshes the table, then commits; after a conflict it waits 100 ms, doubling per attempt,
     * plus up to a tenth more at random, and gives the write up after 4 retries.
     */
    AS_ICEBERGS_CLIENT("retrying as Iceberg's client does"),
    /** At once, on the version the 409's refresh read: no client waits this little. */
    AT_ONCE("retrying at once");

    private final String label;

    Retry(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final Namespace namespace;
  private final int writers;
  private final Retry retry;
  private final Budget budget;

  public RawCommitThroughput(Namespace namespace, int writers, Retry retry, Budget budget) {
    this.namespace = namespace;
    this.writers = writers;
    this.retry = retry;
    this.budget = budget;
  }

  @Override
  public Double run(Side side, int round) throws Exception {
    TableIdentifier table =
        TableIdentifier.of(
            namespace,
            "raw_w" + writers + "_" + retry.name().toLowerCase(Locale.ROOT) + "_r" + round);
    PreparedAppend.first(side.client().createTable(table, Tables.SCHEMA));
    AtomicInteger succeeded = new AtomicInteger();
    List<RESTCatalog> clients = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    long elapsedNanos;
    try {
      List<PreparedAppend> appends = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        RESTCatalog client = side.newClient();
        clients.add(client);
        appends.add(PreparedAppend.following(client.loadTable(table)));
      }
      CountDownLatch go = new CountDownLatch(1);
      AtomicLong deadline = new AtomicLong();
      List<Future<?>> done = new ArrayList<>();
      for (PreparedAppend append : appends) {
        done.add(
            pool.submit(
                () -> {
                  go.await();
                  while (System.nanoTime() < deadline.get()) {
                    try {
                      write(append);
                      succeeded.incrementAndGet();
                    } catch (CommitFailedException e) {
                      // given up (or, at once, refreshed): the next write starts afresh
                    }
                  }
                  return null;
                }));
      }
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
        try {
          client.close();
        } catch (IOException e) {
          // the round's results are in
        }
      }
    }
    side.client().invalidateTable(table);
    int snapshots = 0;
    for (var ignored : side.client().loadTable(table).snapshots()) {
      snapshots++;
    }
    // the prepared append's snapshot and every raw commit's
    if (snapshots - 1 != succeeded.get()) {
      throw new IllegalStateException(
          side
              + ": "
              + succeeded.get()
              + " raw commits succeeded, the table has "
              + (snapshots - 1)
              + " snapshots beside the prepared one's");
    }
    return succeeded.get() / (elapsedNanos / 1e9);
  }

  /** One write, with the retries {@link #retry} makes; throws if it did not land. */
  private void write(PreparedAppend append) {
    if (retry == Retry.AT_ONCE) {
      append.commit();
      return;
    }
    Tasks.foreach(append)
        .retry(TableProperties.COMMIT_NUM_RETRIES_DEFAULT)
        .exponentialBackoff(
            TableProperties.COMMIT_MIN_RETRY_WAIT_MS_DEFAULT,
            TableProperties.COMMIT_MAX_RETRY_WAIT_MS_DEFAULT,
            TableProperties.COMMIT_TOTAL_RETRY_TIME_MS_DEFAULT,
            2.0 /* exponential */)
        .onlyRetryOn(CommitFailedException.class)
        .run(PreparedAppend::refreshAndCommit);
  }
}
