package dev.puddle.core.purge;

import java.util.Locale;

/**
 * The kinds of background job the purge queue carries. One queue, function, dead-letter queue and
 * alarm serve them all; a message's kind says which job table and worker it is for.
 */
public enum JobKind {
  /** A dropped table's or view's files ({@link PurgeWorker}). */
  PURGE,
  /** A table's snapshot expiry and file cleanup ({@code maintenance.MaintenanceWorker}). */
  MAINTENANCE,
  /**
   * A submitted scan plan ({@code planning.PlanningWorker}), which the planning queue carries to
   * the planning function rather than the purge queue (see {@link KindQueues}).
   */
  PLAN;

  /** The name messages carry. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  static JobKind fromWireName(String name) {
    for (JobKind kind : values()) {
      if (kind.wireName().equals(name)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("Unknown job kind: " + name);
  }
}
