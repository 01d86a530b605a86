package dev.puddle.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * A catalog handler of a test's own making (its own metastore connections, say) served on a
 * loopback port through the real API Gateway bridge, next to the shared twin.
 */
final class TestEndpoint implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService threads;

  private TestEndpoint(HttpServer server, ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  static TestEndpoint start(RequestStreamHandler handler) {
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
      ExecutorService threads = Executors.newFixedThreadPool(4);
      server.setExecutor(threads);
      server.createContext("/", new ApiGatewayBridge(handler, new InFlight()));
      server.start();
      return new TestEndpoint(server, threads);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String uri() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Iceberg's REST client for a warehouse, through this endpoint. */
  RESTCatalog client(String warehouse) {
    return client(warehouse, Map.of());
  }

  /** Iceberg's REST client for a warehouse, through this endpoint, with more properties. */
  RESTCatalog client(String warehouse, Map<String, String> extra) {
    return TestTwin.client(uri(), warehouse, extra);
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdown();
  }
}
