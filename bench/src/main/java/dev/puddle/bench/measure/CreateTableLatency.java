package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/** {@code createTable} latency, one create at a time, each a new table in one namespace. */
public final class CreateTableLatency implements Trial<Latencies> {
  private final Namespace namespace;
  private final Budget budget;

  public CreateTableLatency(Namespace namespace, Budget budget) {
    this.namespace = namespace;
    this.budget = budget;
  }

  @Override
  public Latencies run(Side side, int round) {
    List<Long> nanos = new ArrayList<>();
    long started = System.nanoTime();
    while (budget.more(started, nanos.size())) {
      TableIdentifier table = TableIdentifier.of(namespace, "r" + round + "_" + nanos.size());
      long start = System.nanoTime();
      side.client().createTable(table, Tables.SCHEMA);
      nanos.add(System.nanoTime() - start);
    }
    return Latencies.of(nanos);
  }
}
