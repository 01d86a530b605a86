package dev.puddle.core.metastore;

import java.util.ArrayList;
import java.util.List;

/**
 * The events one transaction of a change records, in the order its changes were made: handed to the
 * work by {@link Database#transaction(Change, Database.ChangeWork)} and written by it just before
 * COMMIT, so a transaction that rolls back leaves none.
 */
public final class ChangeEvents {
  private final List<ChangeEvent> events = new ArrayList<>();

  ChangeEvents() {}

  /** Records that the transaction made this change. */
  public void add(ChangeEvent event) {
    events.add(event);
  }

  List<ChangeEvent> list() {
    return events;
  }
}
