package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The caller of an {@link AccessRealm}'s operations, each one at a time: {@code loadTable} (full,
 * the client's copy dropped first), a raw {@code updateTable} ({@link PreparedAppend}) and {@code
 * listTables} of the namespace, of whose 10,000 tables the caller may see 1%. Every listing must
 * return exactly the tables the caller may see, or the run fails.
 */
public final class AccessAtScale {
  private AccessAtScale() {}

  /** Full loads of one of the caller's API-made tables. */
  public static Trial<Latencies> loads(Budget budget) {
    return (side, round) -> new LoadTableLatency(AccessRealm.apiTable(0), false, budget, budget)
        .run(side, round);
  }

  /** Raw commits, on an API-made table of the round's own. */
  public static Trial<Latencies> commits(Budget budget) {
    return (side, round) -> {
      PreparedAppend append =
          PreparedAppend.first(side.client().loadTable(AccessRealm.apiTable(round + 1)));
      List<Long> nanos = new ArrayList<>();
      long started = System.nanoTime();
      while (budget.more(started, nanos.size())) {
        nanos.add(append.commit());
      }
      return Latencies.of(nanos);
    };
  }

  /** Whole listings of the namespace; each must give exactly the caller's tables. */
  public static Trial<Latencies> listings(Budget budget) {
    Set<TableIdentifier> visible = Set.copyOf(AccessRealm.visibleTables());
    return (side, round) -> {
      List<Long> nanos = new ArrayList<>();
      long started = System.nanoTime();
      do {
        long start = System.nanoTime();
        List<TableIdentifier> listed = side.client().listTables(AccessRealm.NAMESPACE);
        nanos.add(System.nanoTime() - start);
        check(side, listed, visible);
      } while (budget.more(started, nanos.size()));
      return Latencies.of(nanos);
    };
  }

  private static void check(Side side, List<TableIdentifier> listed, Set<TableIdentifier> visible) {
    Set<TableIdentifier> distinct = new HashSet<>(listed);
    if (distinct.size() != listed.size() || !distinct.equals(visible)) {
      Set<TableIdentifier> extra = new HashSet<>(distinct);
      extra.removeAll(visible);
      Set<TableIdentifier> missing = new HashSet<>(visible);
      missing.removeAll(distinct);
      throw new IllegalStateException(
          side
              + " listed "
              + listed.size()
              + " tables, not exactly the "
              + visible.size()
              + " the caller may see: "
              + extra.size()
              + " it may not see, "
              + missing.size()
              + " missing");
    }
  }
}
