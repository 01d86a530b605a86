package dev.puddle.core.catalog;

import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.Warehouse;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What this execution environment derived from tables' metadata (parsed metadata, response bodies),
 * kept so that a request on a version already seen reads and derives nothing again. An entry stands
 * for one version of a table: one metadata location. A location names one immutable file (every
 * commit writes a new one under a unique name), so the metastore's current row says whether an
 * entry is current, and a stale entry is never used. Safe to lose; bounded by weight, least
 * recently used out first; thread-safe.
 *
 * @param <V> what is kept per version
 */
public final class VersionCache<V> {
  /** A kept value and the metadata location it stands for. */
  public record Entry<V>(String metadataLocation, V value, long weight) {
    /** Whether this is what was kept for the row's current version. */
    public boolean standsFor(CatalogObject row) {
      return metadataLocation.equals(row.metadataLocation());
    }
  }

  /** Whether {@code kept} is what was kept for the row's current version. */
  public static <V> boolean holds(Optional<Entry<V>> kept, CatalogObject row) {
    return kept.isPresent() && kept.get().standsFor(row);
  }

  private record Key(long warehouseId, TableIdentifier identifier) {}

  private final long maxWeight;
  private final LinkedHashMap<Key, Entry<V>> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long weight;

  /** A cache holding entries of at most {@code maxWeight} in all. */
  public VersionCache(long maxWeight) {
    this.maxWeight = maxWeight;
  }

  /** A cache of a sixteenth of the heap, at most 256 MB. */
  public static <V> VersionCache<V> ofHeapShare() {
    return new VersionCache<>(Math.min(Runtime.getRuntime().maxMemory() / 16, 256L << 20));
  }

  /** The entry kept for the table of that name, whichever version it stands for. */
  public synchronized Optional<Entry<V>> get(Warehouse warehouse, TableIdentifier identifier) {
    return Optional.ofNullable(entries.get(new Key(warehouse.id(), identifier)));
  }

  /** Keeps {@code value} for the table at that metadata location, in place of what was kept. */
  public synchronized void put(
      Warehouse warehouse,
      TableIdentifier identifier,
      String metadataLocation,
      V value,
      long weight) {
    Key key = new Key(warehouse.id(), identifier);
    Entry<V> replaced = entries.remove(key);
    if (replaced != null) {
      this.weight -= replaced.weight();
    }
    if (weight > maxWeight) {
      return;
    }
    entries.put(key, new Entry<>(metadataLocation, value, weight));
    this.weight += weight;
    Iterator<Entry<V>> eldest = entries.values().iterator();
    while (this.weight > maxWeight) {
      this.weight -= eldest.next().weight();
      eldest.remove();
    }
  }
}
