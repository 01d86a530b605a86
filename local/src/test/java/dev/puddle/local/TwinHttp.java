package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.function.Supplier;
import org.apache.iceberg.util.JsonUtil;

/**
 * Raw HTTP requests to a twin's endpoint, for what Iceberg's client does not send (the management
 * API, a view dropped with purge, a plan submitted by hand, a token form): one client for every
 * test, the caller's bearer token when there is one, and no checked exceptions. Requests with a
 * body send it as JSON unless a {@code Content-Type} header says otherwise.
 */
final class TwinHttp {
  // thread-safe and kept for the JVM: a client per request would open a connection per request
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private final Supplier<String> uri;
  private final Supplier<String> token;

  private TwinHttp(Supplier<String> uri, Supplier<String> token) {
    this.uri = uri;
    this.token = token;
  }

  /** Root's requests to the shared JDBC twin, each with a token of its own. */
  static TwinHttp root() {
    return new TwinHttp(() -> TestTwin.get().uri(), TestTwin::rootToken);
  }

  /** Root's requests to a shared twin, each with a token of its own. */
  static TwinHttp root(TestTwin twin) {
    return new TwinHttp(() -> twin.local().uri(), () -> twin.token(TestTwin.ROOT));
  }

  /** Requests with no token to the endpoint at {@code uri}. */
  static TwinHttp at(String uri) {
    return new TwinHttp(() -> uri, () -> null);
  }

  /** The same requests, each carrying {@code token}. */
  TwinHttp bearer(String token) {
    return new TwinHttp(uri, () -> token);
  }

  HttpResponse<String> get(String path) {
    return send("GET", path, null);
  }

  HttpResponse<String> post(String path, String body) {
    return send("POST", path, body);
  }

  HttpResponse<String> delete(String path) {
    return send("DELETE", path, null);
  }

  /** A form posted to the token endpoint, with {@code headers} as in {@link #send}. */
  HttpResponse<String> tokenForm(String form, String... headers) {
    String[] all = new String[headers.length + 2];
    all[0] = "Content-Type";
    all[1] = "application/x-www-form-urlencoded";
    System.arraycopy(headers, 0, all, 2, headers.length);
    return send("POST", "/v1/oauth/tokens", form, all);
  }

  /**
   * {@code method} on {@code path} of the endpoint, with {@code body} if not null, and {@code
   * headers} as name, value, name, value….
   */
  HttpResponse<String> send(String method, String path, String body, String... headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(uri.get() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    String bearer = token.get();
    if (bearer != null) {
      request.setHeader("Authorization", "Bearer " + bearer);
    }
    if (body != null) {
      request.setHeader("Content-Type", "application/json");
    }
    for (int i = 0; i < headers.length; i += 2) {
      request.setHeader(headers[i], headers[i + 1]);
    }
    try {
      return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@link #send}, which must succeed with a 2xx: its JSON answer, or null for an empty one. */
  JsonNode ok(String method, String path, String body) {
    HttpResponse<String> response = send(method, path, body);
    assertThat(response.statusCode())
        .as(method + " " + path + ": " + response.body())
        .isBetween(200, 299);
    return json(response);
  }

  /** The JSON body of {@code response}, or null when it has none. */
  static JsonNode json(HttpResponse<String> response) {
    if (response.body().isEmpty()) {
      return null;
    }
    try {
      return JsonUtil.mapper().readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
