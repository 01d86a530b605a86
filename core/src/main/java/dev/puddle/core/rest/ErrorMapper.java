package dev.puddle.core.rest;

import dev.puddle.core.api.RequestLimits;
import dev.puddle.core.api.Response;
import dev.puddle.core.events.EventsExpiredException;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchIcebergTableException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place exceptions become responses: {@code {"error":{"message","type","code"}}} with the
 * status Iceberg's clients expect and {@code type} the Iceberg exception's simple name. Stack
 * traces are logged, never returned. A known conflict is a 409; a commit whose outcome is unknown
 * is a 5xx, so clients check before retrying.
 */
public final class ErrorMapper {
  private static final Logger LOG = LoggerFactory.getLogger(ErrorMapper.class);

  /**
   * Set while SnapStart priming replays canned requests, before the environment serves any: they
   * fail on purpose where they would first need the metastore, and those failures are no news.
   */
  private static volatile boolean priming;

  /** Runs {@code work} (priming's replays) without logging the failures it maps. */
  public static void whilePriming(Runnable work) {
    priming = true;
    try {
      work.run();
    } finally {
      priming = false;
    }
  }

  private static final Map<Class<? extends Exception>, Integer> STATUS =
      Map.ofEntries(
          Map.entry(BadRequestException.class, 400),
          Map.entry(IllegalArgumentException.class, 400),
          Map.entry(ValidationException.class, 400),
          Map.entry(NotAuthorizedException.class, 401),
          Map.entry(ForbiddenException.class, 403),
          Map.entry(NoSuchNamespaceException.class, 404),
          Map.entry(NoSuchTableException.class, 404),
          Map.entry(NoSuchViewException.class, 404),
          Map.entry(NoSuchPlanIdException.class, 404),
          Map.entry(NoSuchPlanTaskException.class, 404),
          Map.entry(NoSuchIcebergTableException.class, 404),
          Map.entry(NotFoundException.class, 404),
          Map.entry(UnsupportedOperationException.class, 406),
          Map.entry(AlreadyExistsException.class, 409),
          Map.entry(NamespaceNotEmptyException.class, 409),
          Map.entry(EventsExpiredException.class, 410),
          Map.entry(CommitFailedException.class, 409),
          Map.entry(UnprocessableEntityException.class, 422),
          Map.entry(CommitStateUnknownException.class, 500),
          Map.entry(ServiceUnavailableException.class, 503));

  /** How much of a path an error message quotes. */
  private static final int MAX_QUOTED_CHARS = 200;

  private ErrorMapper() {}

  public static Response toResponse(Throwable error) {
    int status = statusOf(error);
    String message;
    if (status == 500 && !(error instanceof CommitStateUnknownException)) {
      if (!priming) {
        LOG.error("Internal error", error);
      }
      message = "Internal server error";
    } else {
      if (status >= 500 && !priming) {
        LOG.warn("{}: {}", error.getClass().getSimpleName(), error.getMessage(), error);
      }
      message = error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
    }
    return error(status, error.getClass().getSimpleName(), message);
  }

  /** 404 for a path no route has. */
  public static Response noRoute(String method, String path) {
    return error(404, "NotFoundException", "No route for " + method + " " + printable(path));
  }

  /** 405 for a path some route has, but not with this method; {@code Allow} lists those it has. */
  public static Response methodNotAllowed(
      String method, String path, Collection<String> allowedMethods) {
    return error(
            405,
            "MethodNotAllowedException",
            "Method " + method + " is not allowed on " + printable(path))
        .withHeader("allow", String.join(", ", allowedMethods));
  }

  /** 413 for a body over API Gateway's limit, {@link RequestLimits#MAX_BODY_BYTES}. */
  public static Response contentTooLarge(long bytes) {
    return error(
        413,
        "ContentTooLargeException",
        String.format(
            Locale.ROOT,
            "Request body of %s bytes exceeds the limit of %d bytes",
            bytes < 0 ? "more than " + RequestLimits.MAX_BODY_BYTES : Long.toString(bytes),
            RequestLimits.MAX_BODY_BYTES));
  }

  /**
   * A path as an error message may quote it: control characters escaped, and cut short, so that a
   * message stays readable and small whatever the client sent.
   */
  static String printable(String path) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < path.length() && out.length() < MAX_QUOTED_CHARS; i++) {
      char c = path.charAt(i);
      if (Character.isISOControl(c)) {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.length() < path.length() ? out + "..." : out.toString();
  }

  public static Response error(int status, String type, String message) {
    ErrorResponse body =
        ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build();
    return Response.json(status, ErrorResponseParser.toJson(body));
  }

  static int statusOf(Throwable error) {
    for (Class<?> type = error.getClass(); type != null; type = type.getSuperclass()) {
      Integer status = STATUS.get(type);
      if (status != null) {
        return status;
      }
    }
    return 500;
  }
}
