package dev.puddle.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.util.Map;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * A catalog handler of a test's own making (its own metastore connections, say) served on a
 * loopback port through the real API Gateway bridge, next to the shared twin.
 */
final class TestEndpoint implements AutoCloseable {
  private final HttpFront http;

  private TestEndpoint(HttpFront http) {
    this.http = http;
  }

  static TestEndpoint start(RequestStreamHandler handler) {
    return new TestEndpoint(
        HttpFront.start("127.0.0.1", 0, 4, new ApiGatewayBridge(handler, new InFlight())));
  }

  String uri() {
    return http.uri();
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
    http.close();
  }
}
