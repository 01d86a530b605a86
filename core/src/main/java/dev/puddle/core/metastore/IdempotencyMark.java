package dev.puddle.core.metastore;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;

/**
 * What a change writes inside its own database transaction when it serves a request with an {@code
 * Idempotency-Key}: the key's claim marked applied, so that the change and the record that it took
 * effect commit together or not at all. Every write of the catalog takes one and hands it to {@link
 * Database#transaction(IdempotencyMark, Database.Work)}; {@link #NONE} for requests without a key.
 */
@FunctionalInterface
public interface IdempotencyMark {
  /** A change made without an idempotency key: nothing to record. */
  IdempotencyMark NONE = connection -> {};

  void write(Connection connection) throws SQLException;

  /** Marks the claim {@code attempt} of {@code key} applied. */
  static IdempotencyMark applied(String realm, UUID key, UUID attempt) {
    return connection -> IdempotencyKeys.markApplied(connection, realm, key, attempt);
  }
}
