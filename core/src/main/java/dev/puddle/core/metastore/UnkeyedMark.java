package dev.puddle.core.metastore;

import dev.puddle.core.api.Response;
import java.sql.Connection;
import java.util.function.Function;

/**
 * The mark of a request without an idempotency key: it stores nothing, but builds the request's
 * answer while the transaction waits for its metadata file, as a keyed request's claim does, so
 * that a create or commit without a key does not build and gzip its response after {@code COMMIT}
 * either. What the answer builds is kept where the request finds it afterwards (the table loads'
 * cache); if the transaction rolls back, it stands for no row.
 */
final class UnkeyedMark implements IdempotencyMark {
  private volatile Function<CommittedVersion, Response> answer;

  @Override
  public void write(Connection connection, CommittedVersion version) {}

  @Override
  public void prepare(CommittedVersion version) {
    Function<CommittedVersion, Response> answering = answer;
    if (answering != null) {
      answering.apply(version);
    }
  }

  @Override
  public void answerWith(Function<CommittedVersion, Response> answer) {
    this.answer = answer;
  }
}
