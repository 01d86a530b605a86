package dev.puddle.cli;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.puddle.contract.Route;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.iceberg.rest.RESTSerializers;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.apache.iceberg.rest.responses.OAuthErrorResponseParser;
import org.apache.iceberg.rest.responses.OAuthTokenResponse;

/**
 * The catalog over HTTP: requests on the route table's paths, with a bearer token (given, or got
 * once with the client-credentials flow), answers as JSON, and every refusal turned into a {@link
 * CatalogError} carrying the message of the catalog's {@code ErrorResponse}.
 */
final class CatalogClient {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  /**
   * Jackson configured as Iceberg's REST client configures it (field access, kebab-case names, the
   * serializers of {@link RESTSerializers}), so iceberg-core's response classes read as they do
   * there: tokens, config, listings.
   */
  static final ObjectMapper JSON = new ObjectMapper();

  static {
    JSON.setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY);
    JSON.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    JSON.setPropertyNamingStrategy(new PropertyNamingStrategies.KebabCaseStrategy());
    RESTSerializers.registerAll(JSON);
  }

  private final HttpClient http;
  private final ConnectionOptions.Connection connection;
  private String token;

  CatalogClient(HttpClient http, ConnectionOptions.Connection connection) {
    this.http = http;
    this.connection = connection;
    this.token = connection.token();
  }

  String warehouse() {
    return connection.warehouse();
  }

  /** A route's path with its variables filled in, in the order the template names them. */
  static String path(Route route, String... values) {
    StringBuilder path = new StringBuilder();
    int next = 0;
    for (String segment : route.path().substring(1).split("/")) {
      path.append('/');
      if (segment.startsWith("{")) {
        path.append(values[next++]);
      } else {
        path.append(segment);
      }
    }
    if (next != values.length) {
      throw new IllegalArgumentException(route + " takes " + next + " values");
    }
    return path.toString();
  }

  /** A path segment: one name, percent-encoded. */
  static String segment(String name) {
    return RESTUtil.encodeString(name);
  }

  JsonNode get(String path) {
    return send("GET", path, Map.of(), null);
  }

  JsonNode get(String path, Map<String, String> query) {
    return send("GET", path, query, null);
  }

  /** Sends a request with an optional JSON body; the answer's JSON, or null for 204. */
  JsonNode send(String method, String path, Map<String, String> query, JsonNode body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(resolve(path, query))
            .timeout(TIMEOUT)
            .header("Accept", "application/json")
            .header("Authorization", "Bearer " + token());
    if (body != null) {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<String> response = exchange(request.build());
    if (response.statusCode() >= 400) {
      throw error(response);
    }
    return response.body() == null || response.body().isEmpty()
        ? null
        : parse(response.body(), response);
  }

  private String token() {
    if (token == null) {
      token = fetchToken();
    }
    return token;
  }

  /** A token for the credential, from the catalog's token endpoint. */
  private String fetchToken() {
    String credential = connection.credential();
    int colon = credential.indexOf(':');
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "client_credentials");
    form.put("client_id", credential.substring(0, colon));
    form.put("client_secret", credential.substring(colon + 1));
    form.put("scope", connection.scope());
    HttpRequest request =
        HttpRequest.newBuilder(resolve(Route.GET_TOKEN.path(), Map.of()))
            .timeout(TIMEOUT)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(RESTUtil.encodeFormData(form)))
            .build();
    HttpResponse<String> response = exchange(request);
    if (response.statusCode() != 200) {
      ErrorResponse error;
      try {
        error = OAuthErrorResponseParser.fromJson(response.statusCode(), response.body());
      } catch (RuntimeException e) {
        throw unparsed(response);
      }
      throw new CatalogError(
          response.statusCode(), "The catalog issued no token: " + describe(error));
    }
    try {
      return JSON.readValue(response.body(), OAuthTokenResponse.class).token();
    } catch (JsonProcessingException | RuntimeException e) {
      throw new CliException(ExitCode.FAILED, "The token endpoint's answer is not a token");
    }
  }

  private URI resolve(String path, Map<String, String> query) {
    StringJoiner parameters = new StringJoiner("&", "?", "").setEmptyValue("");
    query.forEach((name, value) -> parameters.add(segment(name) + "=" + segment(value)));
    return connection.uri().resolve(path.substring(1) + parameters);
  }

  private HttpResponse<String> exchange(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new CliException(
          ExitCode.FAILED, "Cannot reach the catalog at " + connection.uri() + ": " + reason(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCode.FAILED, "Interrupted");
    }
  }

  private static String reason(IOException e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }

  private static JsonNode parse(String body, HttpResponse<String> response) {
    try {
      return JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new CliException(
          ExitCode.FAILED, "The catalog's answer (HTTP " + response.statusCode() + ") is not JSON");
    }
  }

  /** The catalog's refusal, with its ErrorResponse's message. */
  private static CatalogError error(HttpResponse<String> response) {
    try {
      return new CatalogError(
          response.statusCode(), describe(ErrorResponseParser.fromJson(response.body())));
    } catch (RuntimeException e) {
      return unparsed(response);
    }
  }

  /** An answer that is no ErrorResponse (a proxy's, a gateway's): its status and some text. */
  private static CatalogError unparsed(HttpResponse<String> response) {
    String body = response.body() == null ? "" : response.body().strip();
    String excerpt = body.length() > 200 ? body.substring(0, 200) + "…" : body;
    return new CatalogError(
        response.statusCode(),
        "HTTP " + response.statusCode() + (excerpt.isEmpty() ? "" : ": " + excerpt));
  }

  private static String describe(ErrorResponse error) {
    String message = error.message() == null ? "" : error.message();
    return error.type() == null ? message : message + " (" + error.type() + ")";
  }
}
