package dev.puddle.core.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.api.Response;
import org.apache.iceberg.rest.auth.OAuth2Properties;

/**
 * A refused token request, answered in the shape of RFC 6749 section 5.2 that Iceberg's clients
 * parse ({@code OAuthErrorResponseParser}): {@code {"error":"invalid_client",
 * "error_description":"…"}}. Iceberg turns {@code invalid_client} into a {@code
 * NotAuthorizedException} and the request errors into a {@code BadRequestException}.
 */
public final class OAuthError extends RuntimeException {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final int status;
  private final String error;

  private OAuthError(int status, String error, String description) {
    super(description, null, false, false);
    this.status = status;
    this.error = error;
  }

  /** The client is unknown or its secret is wrong (never which of the two). */
  public static OAuthError invalidClient(String description) {
    return new OAuthError(401, OAuth2Properties.INVALID_CLIENT_ERROR, description);
  }

  public static OAuthError invalidRequest(String description) {
    return new OAuthError(400, OAuth2Properties.INVALID_REQUEST_ERROR, description);
  }

  public static OAuthError invalidGrant(String description) {
    return new OAuthError(400, OAuth2Properties.INVALID_GRANT_ERROR, description);
  }

  public static OAuthError unsupportedGrantType(String description) {
    return new OAuthError(400, OAuth2Properties.UNSUPPORTED_GRANT_TYPE_ERROR, description);
  }

  public static OAuthError invalidScope(String description) {
    return new OAuthError(400, OAuth2Properties.INVALID_SCOPE_ERROR, description);
  }

  /** The error code, e.g. {@code invalid_client}. */
  public String error() {
    return error;
  }

  public Response toResponse() {
    ObjectNode body = JSON.createObjectNode();
    body.put("error", error);
    body.put("error_description", getMessage());
    return Response.json(status, body.toString())
        .withHeader("cache-control", "no-store")
        .withHeader("pragma", "no-cache");
  }
}
