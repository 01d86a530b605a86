package dev.puddle.core.metastore;

import dev.puddle.core.api.RequestScope;
import java.util.ArrayList;
import java.util.List;

/**
 * The events one transaction of a change records, in the order its changes were made: handed to the
 * work by {@link Database#transaction(Change, Database.ChangeWork)} and written by it just before
 * COMMIT, so a transaction that rolls back leaves none. It also notes the version of a table or
 * view the transaction makes current, for the change's idempotency mark ({@link IdempotencyMark}).
 */
public final class ChangeEvents {
  private final List<ChangeEvent> events = new ArrayList<>();
  private final List<CommittedVersion> versions = new ArrayList<>();

  ChangeEvents() {}

  /** Records that the transaction made this change; the request hears of its first. */
  public void add(ChangeEvent event) {
    if (events.isEmpty()) {
      RequestScope.current().eventsRecorded();
    }
    events.add(event);
  }

  /** Records that the transaction makes {@code version} the current metadata of its object. */
  public void madeCurrent(CommittedVersion version) {
    versions.add(version);
  }

  List<ChangeEvent> list() {
    return events;
  }

  /** The one version the transaction makes current; null if it makes none, or several. */
  CommittedVersion version() {
    return versions.size() == 1 ? versions.getFirst() : null;
  }
}
