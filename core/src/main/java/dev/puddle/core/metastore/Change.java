package dev.puddle.core.metastore;

/**
 * What a request's changes write in their own transactions besides the change itself: the request
 * they belong to (API Gateway's request id) and who made them, for the events each change records,
 * and the idempotency key's mark. Every write of the catalog takes one and hands it to {@link
 * Database#transaction(Change, Database.ChangeWork)}.
 *
 * @param requestId API Gateway's request id; null outside a request, when each transaction gets an
 *     id of its own
 * @param realm the actor's realm, null outside a request
 * @param principal the actor, null outside a request
 */
public record Change(String requestId, String realm, String principal, IdempotencyMark mark) {
  /** A change made outside any request (bootstrap, tests): no actor, no idempotency key. */
  public static final Change NONE = new Change(null, null, null, IdempotencyMark.NONE);

  /** This request's changes, recording that they took effect for an idempotency key. */
  public Change withMark(IdempotencyMark mark) {
    return new Change(requestId, realm, principal, mark);
  }
}
