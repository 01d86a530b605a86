package dev.puddle.local;

import dev.puddle.core.rest.ErrorMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The errors the twin's front raises itself, before or instead of the function (a URI that does not
 * parse or decode, a NUL, headers over API Gateway's limit, a body Jetty gives up on), as Iceberg
 * {@code ErrorResponse} JSON: the same shape as every error of the function, never Jetty's HTML
 * page. The message is the reason Jetty gives, which quotes nothing of the request.
 */
final class FrontErrors extends ErrorHandler {
  /** The error type of each status the front may raise itself, named as the function names it. */
  private static final Map<Integer, String> TYPES =
      Map.of(
          400, "BadRequestException",
          404, "NotFoundException",
          405, "MethodNotAllowedException",
          413, "ContentTooLargeException",
          414, "UriTooLongException",
          431, "RequestHeaderFieldsTooLargeException",
          503, "ServiceUnavailableException");

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status =
        request.getAttribute(ERROR_STATUS) instanceof Integer code
            ? code
            : HttpStatus.INTERNAL_SERVER_ERROR_500;
    String reason = request.getAttribute(ERROR_MESSAGE) instanceof String message ? message : null;
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, body(status, reason), callback);
    return true;
  }

  /** The body of a request Jetty's parser refused before any handler saw it. */
  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, "application/json");
    return body(status, reason);
  }

  private static ByteBuffer body(int status, String reason) {
    String type =
        TYPES.getOrDefault(status, status >= 500 ? "InternalServerError" : "BadRequestException");
    String message =
        "Malformed request: "
            + (reason == null || reason.isBlank() ? HttpStatus.getMessage(status) : reason);
    return ByteBuffer.wrap(
        ErrorMapper.error(status, type, message).body().getBytes(StandardCharsets.UTF_8));
  }
}
