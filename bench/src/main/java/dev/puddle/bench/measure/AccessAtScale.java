package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import dev.puddle.bench.measure.Interleaved.Round;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * The caller of an {@link AccessRealm}'s operations, each one at a time: {@code loadTable} (full,
 * the client's copy dropped first), a raw {@code updateTable} ({@link PreparedAppend}) and {@code
 * listTables} of the namespace, of whose 10,000 tables the caller may see 1%. Every listing must
 * return exactly the tables the caller may see, or the run fails ({@link WrongListing}).
 *
 * <p>Both realms live in the same twin, so they share its JIT and caches: rather than a side per
 * turn, as {@link Interleaved} alternates two servers, the realms alternate operation by operation,
 * each going first every other time, and neither gains from the twin warming up while the other is
 * measured.
 */
public final class AccessAtScale {
  private AccessAtScale() {}

  /** A listing that gave other tables than the caller may see: the run fails. */
  public static final class WrongListing extends IllegalStateException {
    WrongListing(String message) {
      super(message);
    }
  }

  /** One operation, ready to be timed again and again. */
  @FunctionalInterface
  interface Timed {
    /** Does it once; its time in nanoseconds. */
    long once();
  }

  /** An operation, made ready for one side in one round. */
  @FunctionalInterface
  public interface Operation {
    Timed prepare(Side side, int round);
  }

  /** Full loads of one of the caller's API-made tables. */
  public static Operation loads() {
    TableIdentifier table = AccessRealm.apiTable(0);
    return (side, round) -> {
      RESTCatalog client = side.client();
      return () -> {
        client.invalidateTable(table);
        long start = System.nanoTime();
        client.loadTable(table);
        return System.nanoTime() - start;
      };
    };
  }

  /** Raw commits, on an API-made table of the round's own. */
  public static Operation commits() {
    return (side, round) ->
        PreparedAppend.first(side.client().loadTable(AccessRealm.apiTable(round + 1)))::commit;
  }

  /** Whole listings of the namespace; each must give exactly the caller's tables. */
  public static Operation listings() {
    Set<TableIdentifier> visible = Set.copyOf(AccessRealm.visibleTables());
    return (side, round) ->
        () -> {
          long start = System.nanoTime();
          List<TableIdentifier> listed = side.client().listTables(AccessRealm.NAMESPACE);
          long nanos = System.nanoTime() - start;
          check(side, listed, visible);
          return nanos;
        };
  }

  /**
   * The measured rounds of {@code operation} on both realms, one warm-up round first (of {@code
   * warmUp} per side).
   */
  public static List<Round<Latencies>> run(
      String what,
      int rounds,
      Side atScale,
      Side empty,
      Operation operation,
      Budget budget,
      Budget warmUp,
      Consumer<String> progress) {
    List<Round<Latencies>> measured = new ArrayList<>();
    for (int round = 0; round <= rounds; round++) {
      Timed a = operation.prepare(atScale, round);
      Timed b = operation.prepare(empty, round);
      List<Long> aNanos = new ArrayList<>();
      List<Long> bNanos = new ArrayList<>();
      Budget share = round == 0 ? warmUp : budget;
      long started = System.nanoTime();
      do {
        if (aNanos.size() % 2 == 0) {
          aNanos.add(a.once());
          bNanos.add(b.once());
        } else {
          bNanos.add(b.once());
          aNanos.add(a.once());
        }
      } while (share.more(started, aNanos.size()));
      Latencies aLatencies = Latencies.of(aNanos);
      Latencies bLatencies = Latencies.of(bNanos);
      String label = round == 0 ? "warm-up" : "round " + round + "/" + rounds;
      progress.accept(
          what
              + ", "
              + label
              + ": "
              + atScale
              + " "
              + aLatencies
              + " | "
              + empty
              + " "
              + bLatencies);
      if (round > 0) {
        measured.add(new Round<>(aLatencies, bLatencies));
      }
    }
    return measured;
  }

  private static void check(Side side, List<TableIdentifier> listed, Set<TableIdentifier> visible) {
    Set<TableIdentifier> distinct = new HashSet<>(listed);
    if (distinct.size() != listed.size() || !distinct.equals(visible)) {
      Set<TableIdentifier> extra = new HashSet<>(distinct);
      extra.removeAll(visible);
      Set<TableIdentifier> missing = new HashSet<>(visible);
      missing.removeAll(distinct);
      throw new WrongListing(
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
