package dev.puddle.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * A loopback endpoint speaking Secrets Manager's JSON protocol for one secret, whose value a test
 * sets, counting {@code GetSecretValue} calls.
 */
final class SecretsManagerEndpoint implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final String arn;
  private final AtomicReference<String> value = new AtomicReference<>();
  private final AtomicInteger fetches = new AtomicInteger();

  SecretsManagerEndpoint(String arn) {
    this.arn = arn;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext(
        "/",
        exchange -> {
          String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
          byte[] body;
          int status;
          if ("secretsmanager.GetSecretValue".equals(target)) {
            fetches.incrementAndGet();
            body =
                JSON.writeValueAsBytes(
                    Map.of(
                        "ARN",
                        arn,
                        "Name",
                        "puddle-token-signing",
                        "SecretString",
                        value.get(),
                        "VersionId",
                        "v" + fetches.get()));
            status = 200;
          } else {
            body = "{\"__type\":\"InvalidRequestException\"}".getBytes(StandardCharsets.UTF_8);
            status = 400;
          }
          exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
          exchange.sendResponseHeaders(status, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  void secret(String secret) {
    value.set(secret);
  }

  int fetches() {
    return fetches.get();
  }

  /** A real SDK client of this endpoint, on the url-connection client as the functions build it. */
  SecretsManagerClient client() {
    return SecretsManagerClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
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
  }
}
