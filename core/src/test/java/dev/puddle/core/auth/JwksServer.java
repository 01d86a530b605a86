package dev.puddle.core.auth;

import com.nimbusds.jose.jwk.JWKSet;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An issuer's JWKS endpoint on loopback: serves the public half of a key set and counts fetches.
 */
final class JwksServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(4);
  private final AtomicReference<JWKSet> keys = new AtomicReference<>(new JWKSet());
  private final AtomicInteger fetches = new AtomicInteger();
  private final AtomicBoolean failing = new AtomicBoolean();

  JwksServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext(
        "/jwks.json",
        exchange -> {
          fetches.incrementAndGet();
          byte[] body =
              failing.get()
                  ? "unavailable".getBytes(StandardCharsets.UTF_8)
                  : keys.get().toString(true).getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(failing.get() ? 503 : 200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.setExecutor(threads);
    server.start();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks.json");
  }

  /** Publishes {@code set} (only its public parts are served). */
  void publish(JWKSet set) {
    keys.set(set);
  }

  void failing(boolean failing) {
    this.failing.set(failing);
  }

  int fetches() {
    return fetches.get();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdown();
  }
}
