package dev.puddle.core.metastore;

import dev.puddle.core.api.Response;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Function;

/**
 * What a change writes inside its own database transaction when it serves a request with an {@code
 * Idempotency-Key}: the key claimed for the request's attempt and marked applied ({@link
 * IdempotencyKeys.Claim}), so that the change and the claim commit together or not at all, and, if
 * the request's response is already known then, that response too. It is written after the change's
 * own statements and before its events, through {@link Database#transaction(Change,
 * Database.ChangeWork)}; {@link #unkeyed} for requests without a key, {@link #NONE} for changes
 * outside a request.
 */
@FunctionalInterface
public interface IdempotencyMark {
  /** A change made outside a request (bootstrap, workers, tests): nothing to record or answer. */
  IdempotencyMark NONE = (connection, version) -> {};

  /**
   * The mark of one request without an idempotency key: it records nothing, but builds the
   * request's answer ahead, as a keyed request's does ({@link #prepare}).
   */
  static IdempotencyMark unkeyed() {
    return new UnkeyedMark();
  }

  /**
   * Writes the mark, once the change's own statements ran and before its events are written.
   *
   * @param version the table or view version the transaction makes current, null if it makes none
   *     or several ({@link ChangeEvents#madeCurrent})
   */
  void write(Connection connection, CommittedVersion version) throws SQLException;

  /**
   * Builds now what {@link #write} will store with {@code version}, if it is the version the
   * transaction makes current: called while the transaction waits for something else (a commit or
   * create waits for its metadata file's upload), so that building and gzipping the response is not
   * added after the upload to the time the table's row and the event feed are held.
   */
  default void prepare(CommittedVersion version) {}

  /**
   * How the request answers once one of its transactions makes a version current: a response built
   * from the version alone (a create's or a commit's), or null for a version whose response it is
   * not. A keyed request stores that response in its mark, with its claim, so that its final
   * response costs no statement after {@code COMMIT}; a request without a key stores nothing, but
   * its answer is built ahead all the same, and kept by the answer itself.
   */
  default void answerWith(Function<CommittedVersion, Response> answer) {}
}
