package dev.puddle.local;

import dev.puddle.core.api.RequestLimits;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * API Gateway's place on one machine: a Jetty server on an address and port, every request of which
 * the {@link ApiGatewayBridge} serves. Jetty sends response header names as the handler gives them
 * (those it knows in their registered spelling, e.g. {@code ETag}), which matters: Iceberg's Java
 * client looks {@code ETag} up case-sensitively (the JDK's HttpServer, the front before, sent
 * {@code Etag}). Its connections have Nagle's algorithm off, as API Gateway's do: with it on, a
 * response longer than one segment waits ~40 ms for the client's delayed ACK. Errors Jetty raises
 * itself are {@link FrontErrors}: JSON, never an HTML page. It also serves the web console at
 * {@code /ui} ({@link ConsoleFiles}), which CloudFront serves on AWS.
 */
final class HttpFront implements AutoCloseable {
  /** Connections waiting to be accepted, beyond which the system refuses more. */
  private static final int BACKLOG = 128;

  /** Jetty's threads besides the request threads: one accepts connections, one selects. */
  private static final int ACCEPTORS = 1;

  private static final int SELECTORS = 1;

  private final Server server;
  private final String uri;

  private HttpFront(Server server, String uri) {
    this.server = server;
    this.uri = uri;
  }

  /**
   * Listens on {@code bind}:{@code port} (0: a free port), serving up to {@code threads} requests
   * at a time.
   */
  static HttpFront start(String bind, int port, int threads, ApiGatewayBridge bridge) {
    int poolSize = threads + ACCEPTORS + SELECTORS;
    QueuedThreadPool pool = new QueuedThreadPool(poolSize, poolSize);
    // none kept in reserve to take over selecting from a thread that runs a request itself: the
    // selector hands every request to the pool, so exactly `threads` of them run at a time
    pool.setReservedThreads(0);
    pool.setName("puddle-http");
    Server server = new Server(pool);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setRequestHeaderSize(RequestLimits.MAX_REQUEST_LINE_AND_HEADER_BYTES);
    // API Gateway takes paths Jetty refuses as ambiguous by default, such as %2F in a name
    http.setUriCompliance(UriCompliance.UNSAFE);
    ServerConnector connector =
        new ServerConnector(server, ACCEPTORS, SELECTORS, new HttpConnectionFactory(http));
    connector.setHost(bind);
    connector.setPort(port);
    connector.setAcceptQueueSize(BACKLOG);
    server.addConnector(connector);
    // the console's files at /ui, as CloudFront serves them on AWS; everything else is the API's
    server.setHandler(new Handler.Sequence(ConsoleFiles.fromClasspath(), bridge));
    server.setErrorHandler(new FrontErrors());
    try {
      server.start();
    } catch (Exception e) {
      IllegalStateException failure =
          new IllegalStateException("Cannot listen on " + bind + ":" + port, e);
      try {
        server.stop(); // its threads, some of which started
      } catch (Exception stopping) {
        failure.addSuppressed(stopping);
      }
      throw failure;
    }
    return new HttpFront(server, "http://" + bind + ":" + connector.getLocalPort());
  }

  /** The address clients use, e.g. {@code http://127.0.0.1:8181}. */
  String uri() {
    return uri;
  }

  /** Closes the listener and its connections at once: drain requests in flight first. */
  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot stop the HTTP server", e);
    }
  }
}
