package dev.puddle.core.metastore;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a change writes inside its own database transaction when it serves a request with an {@code
 * Idempotency-Key}: the key claimed for the request's attempt and marked applied ({@link
 * IdempotencyKeys.Claim}), so that the change and the claim commit together or not at all. It is
 * the transaction's last statement, written through {@link Database#transaction(Change,
 * Database.ChangeWork)}; {@link #NONE} for requests without a key.
 */
@FunctionalInterface
public interface IdempotencyMark {
  /** A change made without an idempotency key: nothing to record. */
  IdempotencyMark NONE = connection -> {};

  void write(Connection connection) throws SQLException;
}
