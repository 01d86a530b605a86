package dev.puddle.engines.trino;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.engines.twin.PuddleTwin;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Puddle's management API and token endpoint over HTTP, as an administrator's script would call
 * them: a token for a credential, then JSON requests under {@code /admin/v1}.
 */
public final class Management {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String uri;
  private final String token;

  private Management(String uri, String token) {
    this.uri = uri;
    this.token = token;
  }

  /** Signs in at the twin with a principal's {@code <client id>:<secret>}. */
  public static Management signIn(PuddleTwin twin, String credential) {
    return new Management(twin.uri(), token(twin, credential));
  }

  /** A token for a credential from the client-credentials flow, as engines get one. */
  public static String token(PuddleTwin twin, String credential) {
    int colon = credential.indexOf(':');
    String form =
        "grant_type=client_credentials&scope="
            + URLEncoder.encode("PRINCIPAL_ROLE:ALL", UTF_8)
            + "&client_id="
            + URLEncoder.encode(credential.substring(0, colon), UTF_8)
            + "&client_secret="
            + URLEncoder.encode(credential.substring(colon + 1), UTF_8);
    HttpResponse<String> response =
        send(
            HttpRequest.newBuilder(URI.create(twin.tokenEndpoint()))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)));
    check(response, 200);
    return read(response.body()).get("access_token").asText();
  }

  /** Creates a warehouse in the twin's bucket, {@code s3://warehouse/<name>}. */
  public void createWarehouse(String name) {
    call("POST", "/warehouses", Map.of("name", name, "location", "s3://warehouse/" + name), 201);
  }

  /** Creates a principal and returns its credential, {@code <client id>:<secret>}. */
  public String createPrincipal(String name) {
    JsonNode created = call("POST", "/principals", Map.of("principal", Map.of("name", name)), 201);
    JsonNode credentials = created.get("credentials");
    return credentials.get("clientId").asText() + ":" + credentials.get("clientSecret").asText();
  }

  public void createPrincipalRole(String name) {
    call("POST", "/principal-roles", Map.of("principalRole", Map.of("name", name)), 201);
  }

  public void assignPrincipalRole(String principal, String principalRole) {
    call(
        "PUT",
        "/principals/" + principal + "/principal-roles",
        Map.of("principalRole", Map.of("name", principalRole)),
        204);
  }

  public void createCatalogRole(String warehouse, String name) {
    call(
        "POST",
        "/warehouses/" + warehouse + "/catalog-roles",
        Map.of("catalogRole", Map.of("name", name)),
        201);
  }

  public void assignCatalogRole(String principalRole, String warehouse, String catalogRole) {
    call(
        "PUT",
        "/principal-roles/" + principalRole + "/catalog-roles/" + warehouse,
        Map.of("catalogRole", Map.of("name", catalogRole)),
        204);
  }

  /** Grants a privilege on a namespace to a catalog role. */
  public void grantOnNamespace(
      String warehouse, String catalogRole, String namespace, String privilege) {
    call("PUT", grants(warehouse, catalogRole), namespaceGrant(namespace, privilege), 204);
  }

  /** Revokes what {@link #grantOnNamespace} granted. */
  public void revokeOnNamespace(
      String warehouse, String catalogRole, String namespace, String privilege) {
    call("POST", grants(warehouse, catalogRole), namespaceGrant(namespace, privilege), 204);
  }

  /**
   * Waits until the purge job of a dropped table has ended, and returns it: Puddle purges a
   * dropped table's files asynchronously, through its purge queue.
   */
  public JsonNode awaitPurge(String warehouse, String identifier, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      for (JsonNode job : call("GET", "/warehouses/" + warehouse + "/purge-jobs", null, 200)
          .get("purge-jobs")) {
        String state = job.get("state").asText();
        if (job.get("identifier").asText().equals(identifier)
            && (state.equals("done") || state.equals("failed"))) {
          return job;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "The purge of " + identifier + " did not end in " + timeout);
      }
      pause();
    }
  }

  private static void pause() {
    try {
      Thread.sleep(100); // between two polls of the job's state, not to wait for it
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String grants(String warehouse, String catalogRole) {
    return "/warehouses/" + warehouse + "/catalog-roles/" + catalogRole + "/grants";
  }

  private static Map<String, Object> namespaceGrant(String namespace, String privilege) {
    return Map.of(
        "grant",
        Map.of("type", "namespace", "namespace", List.of(namespace), "privilege", privilege));
  }

  private JsonNode call(String method, String path, Object body, int expected) {
    try {
      HttpResponse<String> response =
          send(
              HttpRequest.newBuilder(URI.create(uri + "/admin/v1" + path))
                  .header("Authorization", "Bearer " + token)
                  .header("Content-Type", "application/json")
                  .method(
                      method,
                      body == null
                          ? HttpRequest.BodyPublishers.noBody()
                          : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
      check(response, expected);
      return response.body().isEmpty() ? JSON.nullNode() : read(response.body());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return HTTP.send(
          request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void check(HttpResponse<String> response, int expected) {
    if (response.statusCode() != expected) {
      throw new IllegalStateException(
          response.request().method()
              + " "
              + response.request().uri().getPath()
              + " answered "
              + response.statusCode()
              + ": "
              + response.body());
    }
  }

  private static JsonNode read(String body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
