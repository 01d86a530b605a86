package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import dev.puddle.contract.FunctionGroup;
import dev.puddle.core.api.Deadline;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.RequestScope;
import dev.puddle.core.api.Response;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.rest.ErrorMapper;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A catalog function serving API Gateway events for the function groups it was deployed for. A
 * request for a route of another group is refused with 403: it reached this function only through a
 * misrouted integration, and this function's role does not carry that route's permissions. Each
 * request runs under a deadline: the function's remaining time, capped at API Gateway's timeout,
 * less a margin to roll back and answer.
 */
final class CatalogFunction {
  /** How the function is deployed. */
  record Options(
      Set<FunctionGroup> groups,
      String realm,
      Duration requestTimeout,
      Duration deadlineMargin,
      int gzipMinBytes) {}

  /**
   * The answer to an invocation that is no API Gateway event, such as the keep-alive schedule's
   * EventBridge event: invoking the alias is all it is for, so it costs no database call and leaves
   * no request line in the logs or the metrics.
   */
  private static final HttpApiResponse KEEP_ALIVE = new HttpApiResponse(204, null, null, false);

  private final CatalogApi api;
  private final Options options;
  private final ResponseEncoding encoding;
  private final RequestLog log;
  private final AtomicBoolean cold = new AtomicBoolean(true);

  CatalogFunction(CatalogApi api, Options options, RequestLog log) {
    this.api = api;
    this.options = options;
    this.encoding = new ResponseEncoding(options.gzipMinBytes());
    this.log = log;
  }

  /**
   * Every HTTP group at once, with API Gateway's limits, its lines in {@code log}: the local twin
   * and tests.
   */
  static CatalogFunction allGroups(CatalogApi api, String realm, RequestLog log) {
    return new CatalogFunction(
        api,
        new Options(
            EnumSet.of(
                FunctionGroup.READ,
                FunctionGroup.WRITE,
                FunctionGroup.SIGN,
                FunctionGroup.TOKEN,
                FunctionGroup.ADMIN),
            realm,
            Duration.ofSeconds(30),
            Duration.ofSeconds(2),
            ResponseEncoding.DEFAULT_MIN_BYTES),
        log);
  }

  HttpApiResponse handle(HttpApiEvent event, Context context) {
    if (event.requestContext() == null) {
      return KEEP_ALIVE;
    }
    long start = System.nanoTime();
    RequestScope scope = new RequestScope(deadline(context));
    Optional<Response> refusal = HttpApiEvents.refusal(event);
    Optional<Request> request =
        refusal.isPresent() ? Optional.empty() : HttpApiEvents.toRequest(event);
    Response response;
    if (refusal.isPresent()) {
      response = refusal.get();
    } else if (request.isEmpty()) {
      response = HttpApiEvents.noRoute(event);
    } else if (!options.groups().contains(request.get().route().group())) {
      response = refused(request.get());
    } else {
      response = scope.run(() -> api.handle(request.get()));
    }
    HttpApiResponse encoded =
        encoding.encode(
            HttpApiEvents.method(event),
            request.flatMap(r -> r.header("accept-encoding")).orElse(null),
            response);
    log.write(
        new RequestLog.Entry(
            requestId(event, context),
            HttpApiEvents.method(event),
            event.rawPath(),
            request.map(r -> r.route().operationId()).orElse("noRoute"),
            groupNames(),
            scope.realm() != null ? scope.realm() : options.realm(),
            request.flatMap(r -> r.pathParameter("prefix")).orElse(null),
            scope.principal(),
            encoded.statusCode(),
            RequestLog.errorType(encoded.isBase64Encoded() ? null : encoded.body()),
            (System.nanoTime() - start) / 1e6,
            encoded.isBase64Encoded(),
            cold.getAndSet(false),
            scope.stats()));
    return encoded;
  }

  /** The answer to an event too large to read: its body is over API Gateway's limit. */
  HttpApiResponse tooLarge() {
    return encoding.encode("POST", null, ErrorMapper.contentTooLarge(-1));
  }

  /** The next request is the first of a restored execution environment. */
  void restored() {
    cold.set(true);
  }

  RequestLog log() {
    return log;
  }

  private Deadline deadline(Context context) {
    long remaining =
        context == null ? Long.MAX_VALUE : Math.max(0, context.getRemainingTimeInMillis());
    long millis = Math.min(remaining, options.requestTimeout().toMillis());
    return Deadline.in(Duration.ofMillis(millis).minus(options.deadlineMargin()));
  }

  private Response refused(Request request) {
    return ErrorMapper.error(
        403,
        "ForbiddenException",
        String.format(
            Locale.ROOT,
            "%s is served by the %s function, not by this %s function",
            request.route().operationId(),
            request.route().group().name().toLowerCase(Locale.ROOT),
            groupNames()));
  }

  private String groupNames() {
    return options.groups().size() == 1
        ? options.groups().iterator().next().name().toLowerCase(Locale.ROOT)
        : "all";
  }

  private static String requestId(HttpApiEvent event, Context context) {
    if (event.requestContext() != null && event.requestContext().requestId() != null) {
      return event.requestContext().requestId();
    }
    return context == null ? null : context.getAwsRequestId();
  }
}
