package dev.puddle.core.rest;

import dev.puddle.contract.FunctionGroup;
import dev.puddle.contract.Route;
import dev.puddle.core.api.Deadline;
import dev.puddle.core.api.Gzip;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.RequestScope;
import dev.puddle.core.api.Response;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.IdempotencyKeys;
import dev.puddle.core.metastore.IdempotencyMark;
import dev.puddle.core.metastore.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code Idempotency-Key} header of the Iceberg REST specification: a mutation carrying a key
 * takes effect at most once per key within the advertised lifetime, on whichever function instance
 * it lands. A retry of a finished request gets the first response replayed (2xx and deterministic
 * 4xx are final; 5xx are not, so a retry runs again if nothing was applied). The same key with a
 * different request is refused with 422; a retry while the first attempt still runs gets 503, and
 * tries again later.
 */
final class IdempotentRequests {
  private static final Logger LOG = LoggerFactory.getLogger(IdempotentRequests.class);

  private static final String HEADER = "idempotency-key";

  /** How long past the request's deadline its claim lasts, in case it is slow to let go. */
  private static final Duration LEASE_GRACE = Duration.ofSeconds(5);

  private static final Duration LEASE_WITHOUT_DEADLINE = Duration.ofMinutes(1);

  /** Time to record a request's outcome, taken from the margin its deadline keeps back. */
  private static final Duration RECORDING_TIME = Duration.ofSeconds(1);

  private final Duration lifetime;
  private final IdempotencyKeys keys;

  IdempotentRequests(Duration lifetime, IdempotencyKeys keys) {
    this.lifetime = lifetime;
    this.keys = keys;
  }

  /** Whether the request is a mutation that carries a key. */
  static boolean applies(Request request) {
    Route route = request.route();
    return route.group() == FunctionGroup.WRITE
        && route != Route.REPORT_METRICS
        && request.header(HEADER).isPresent();
  }

  /**
   * Serves a keyed mutation of {@code caller}'s realm, whose keys are its own. The key is bound to
   * the caller too: another principal presenting it is refused (422) rather than handed a response
   * it was never authorized for. {@code perform} performs the request, each of its changes writing
   * the mark it is given in its own transaction: the first that changes something claims the key
   * there, so no statement of its own runs ahead of the request.
   */
  Response handle(Caller caller, Request request, Function<IdempotencyMark, Response> perform) {
    String realm = caller.realm();
    UUID key;
    try {
      key = UUID.fromString(request.header(HEADER).orElseThrow().trim());
    } catch (IllegalArgumentException e) {
      return ErrorMapper.error(
          400, "BadRequestException", "Invalid Idempotency-Key: expected a UUID (UUIDv7)");
    }
    byte[] hash = hash(caller.principal(), request);
    RequestScope scope = RequestScope.current();
    Duration lease =
        scope.deadline().isNone()
            ? LEASE_WITHOUT_DEADLINE
            : Duration.ofMillis(scope.deadline().remainingMillis()).plus(LEASE_GRACE);
    IdempotencyKeys.Claim claim =
        new IdempotencyKeys.Claim(
            realm, key, hash, request.route().operationId(), UUID.randomUUID(), lease, lifetime);
    Response response = perform.apply(claim);
    if (!claim.lost() && ownResponse(claim, response)) {
      scope.stats().idempotency("executed");
      return response;
    }
    // another attempt holds the key: this one changed nothing, and the key's row answers
    return keys.find(realm, key, lifetime)
        .map(existing -> answerFor(existing, hash, key, scope))
        .orElseGet(() -> inProgress(key));
  }

  /**
   * Records the attempt's outcome: its final response stored, or its claim let go of without one.
   * False if another attempt holds the key, whose row then answers instead. A response already
   * stored with the claim, in the change's own transaction, needs nothing more.
   */
  private boolean ownResponse(IdempotencyKeys.Claim claim, Response response) {
    if (claim.answered()) {
      return true;
    }
    // recorded even when the request ran out of time: that is what the deadline's margin is for
    return new RequestScope(Deadline.in(RECORDING_TIME))
        .run(
            () -> {
              try {
                if (isFinal(response.status())) {
                  return keys.finish(claim, response);
                }
                if (claim.claimed()) {
                  keys.release(claim);
                  return true;
                }
                // nothing to store, and the key may be another's: a principal refused here, or
                // an attempt that failed while the first runs, is answered from the key's row
                return keys.find(claim.realm(), claim.key(), lifetime)
                    .map(existing -> existing.abandonedFor(claim.requestHash()))
                    .orElse(true);
              } catch (RuntimeException e) {
                // the response stands; a retry finds the key unfinished and is told so
                LOG.warn(
                    "Could not record the outcome of idempotency key {}: {}",
                    claim.key(),
                    e.toString());
                return true;
              }
            });
  }

  private Response answerFor(
      IdempotencyKeys.Existing existing, byte[] hash, UUID key, RequestScope scope) {
    if (!Arrays.equals(existing.requestHash(), hash)) {
      return ErrorMapper.error(
          422,
          "UnprocessableEntityException",
          "Idempotency-Key " + key + " was already used for a different request");
    }
    if (existing.status() != null) {
      scope.stats().idempotency("replayed");
      return replay(existing);
    }
    if (existing.leaseRunning()) {
      return inProgress(key);
    }
    // applied, then the attempt ended without recording its response (the claim would have
    // been taken over otherwise): the change happened, its answer is lost
    return ErrorMapper.error(
        500,
        "CommitStateUnknownException",
        "The request with Idempotency-Key "
            + key
            + " took effect, but its response was lost; load the object to see its state");
  }

  private static Response inProgress(UUID key) {
    return ErrorMapper.error(
            503,
            "ServiceUnavailableException",
            "A request with Idempotency-Key " + key + " is still in progress; retry later")
        .withHeader("retry-after", "1");
  }

  private static Response replay(IdempotencyKeys.Existing existing) {
    Map<String, String> headers =
        existing.headers() == null ? Map.of() : Json.toMap(existing.headers());
    String body = existing.body() == null ? null : Gzip.decompress(existing.body());
    return new Response(existing.status(), headers, body);
  }

  /**
   * Final responses are replayed: success and deterministic client errors. Not final: server
   * errors, and authentication or throttling answers, which a retry may get past.
   */
  static boolean isFinal(int status) {
    return status < 500 && status != 401 && status != 403 && status != 419 && status != 429;
  }

  /** SHA-256 of what makes two requests the same: who sent it, operation, path, query and body. */
  static byte[] hash(String principal, Request request) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      update(digest, principal);
      update(digest, request.route().operationId());
      for (Map.Entry<String, String> entry : new TreeMap<>(request.pathParameters()).entrySet()) {
        update(digest, entry.getKey());
        update(digest, entry.getValue());
      }
      update(digest, "?");
      for (Map.Entry<String, String> entry : new TreeMap<>(request.queryParameters()).entrySet()) {
        update(digest, entry.getKey());
        update(digest, entry.getValue());
      }
      update(digest, request.body());
      return digest.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void update(MessageDigest digest, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.UTF_8));
    digest.update((byte) ':');
    digest.update(bytes);
  }
}
