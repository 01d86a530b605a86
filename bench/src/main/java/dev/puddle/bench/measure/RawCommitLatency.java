package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The server's part of a commit alone: {@code updateTable} latency, one raw commit at a time
 * ({@link PreparedAppend}), on a table of the round's own.
 */
public final class RawCommitLatency implements Trial<Latencies> {
  private final Namespace namespace;
  private final Budget budget;

  public RawCommitLatency(Namespace namespace, Budget budget) {
    this.namespace = namespace;
    this.budget = budget;
  }

  @Override
  public Latencies run(Side side, int round) {
    TableIdentifier name = TableIdentifier.of(namespace, "raw_r" + round);
    PreparedAppend append = PreparedAppend.first(side.client().createTable(name, Tables.SCHEMA));
    List<Long> nanos = new ArrayList<>();
    long started = System.nanoTime();
    while (budget.more(started, nanos.size())) {
      nanos.add(append.commit());
    }
    return Latencies.of(nanos);
  }
}
