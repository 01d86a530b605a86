package dev.puddle.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * A loopback endpoint speaking Secrets Manager's JSON protocol for one secret, whose value a test
 * sets, counting {@code GetSecretValue} calls. {@code PutSecretValue} adds a version and makes it
 * current, with Secrets Manager's rule for its {@code ClientRequestToken} (the version id): the
 * same token with the same value is a no-op, with another value a {@code ResourceExistsException}.
 */
final class SecretsManagerEndpoint implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final String arn;
  private final Map<String, String> versions = new LinkedHashMap<>();
  private final AtomicInteger fetches = new AtomicInteger();
  private final AtomicInteger puts = new AtomicInteger();
  private String current;
  private CyclicBarrier heldReads;
  private int readsToHold;

  SecretsManagerEndpoint(String arn) {
    this.arn = arn;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
    JsonNode request = JSON.readTree(exchange.getRequestBody());
    int status = 200;
    Object body;
    if ("secretsmanager.GetSecretValue".equals(target)) {
      fetches.incrementAndGet();
      awaitHeldReads();
      synchronized (this) {
        body =
            Map.of(
                "ARN",
                arn,
                "Name",
                "puddle-token-signing",
                "SecretString",
                versions.get(current),
                "VersionId",
                current,
                "VersionStages",
                List.of("AWSCURRENT"));
      }
    } else if ("secretsmanager.PutSecretValue".equals(target)) {
      puts.incrementAndGet();
      String token = request.path("ClientRequestToken").asText();
      String value = request.path("SecretString").asText();
      synchronized (this) {
        if (versions.containsKey(token) && !versions.get(token).equals(value)) {
          status = 400;
          body =
              Map.of(
                  "__type", "ResourceExistsException",
                  "message", "A version with this token already exists with another value");
        } else {
          versions.put(token, value);
          current = token;
          body =
              Map.of(
                  "ARN",
                  arn,
                  "Name",
                  "puddle-token-signing",
                  "VersionId",
                  token,
                  "VersionStages",
                  List.of("AWSCURRENT"));
        }
      }
    } else {
      status = 400;
      body = Map.of("__type", "InvalidRequestException");
    }
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Sets the secret's value, as a new current version (what an operator's update does). */
  synchronized void secret(String secret) {
    current = UUID.randomUUID().toString();
    versions.put(current, secret);
  }

  synchronized String secret() {
    return versions.get(current);
  }

  /** How many versions the secret has had. */
  synchronized int versions() {
    return versions.size();
  }

  /**
   * Holds the next {@code readers} {@code GetSecretValue} calls until all of them have arrived, so
   * that each reads the value of before any of them acts on it.
   */
  synchronized void holdReads(int readers) {
    heldReads = new CyclicBarrier(readers);
    readsToHold = readers;
  }

  private void awaitHeldReads() {
    CyclicBarrier barrier = null;
    synchronized (this) {
      if (readsToHold > 0) {
        readsToHold--;
        barrier = heldReads;
      }
    }
    if (barrier != null) {
      try {
        barrier.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
        throw new IllegalStateException("The held reads never all arrived", e);
      }
    }
  }

  int fetches() {
    return fetches.get();
  }

  /** How many {@code PutSecretValue} calls arrived, refused ones included. */
  int puts() {
    return puts.get();
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** A real SDK client of this endpoint, on the url-connection client as the functions build it. */
  SecretsManagerClient client() {
    return SecretsManagerClient.builder()
        .endpointOverride(endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "s")))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  String arn() {
    return arn;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
