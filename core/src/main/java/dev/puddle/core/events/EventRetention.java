package dev.puddle.core.events;

import dev.puddle.core.metastore.EventStore;
import dev.puddle.core.metastore.Warehouse;
import java.time.Duration;

/**
 * How long a warehouse keeps its events: its property {@value EventStore#RETENTION_PROPERTY} (whole
 * days), else {@value #DEFAULT_DAYS} days. The scheduled cleanup deletes older events; a query that
 * reaches back further is answered 410.
 */
public final class EventRetention {
  public static final int DEFAULT_DAYS = 30;

  private EventRetention() {}

  /** The warehouse's retention; a property that is not a number of days counts as unset. */
  public static Duration of(Warehouse warehouse) {
    String days = warehouse.properties().get(EventStore.RETENTION_PROPERTY);
    if (days != null && days.matches("[0-9]{1,6}")) {
      return Duration.ofDays(Integer.parseInt(days));
    }
    return Duration.ofDays(DEFAULT_DAYS);
  }
}
