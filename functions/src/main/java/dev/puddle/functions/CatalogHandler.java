package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.rest.CatalogApi;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The Lambda entry point of the Iceberg REST catalog: an API Gateway HTTP API event (payload
 * format 2.0) in, its response out. Wiring happens once per execution environment; each request
 * only converts and delegates to {@link CatalogApi}.
 */
public final class CatalogHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** Built in the execution environment's init phase, from its environment variables. */
  private static final class FromEnvironment {
    static final CatalogApi API = Environment.catalogApi(System.getenv());
  }

  private final CatalogApi api;

  public CatalogHandler() {
    this(FromEnvironment.API);
  }

  public CatalogHandler(CatalogApi api) {
    this.api = api;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    HttpApiEvent event = JSON.readValue(input, HttpApiEvent.class);
    JSON.writeValue(output, handle(event));
  }

  /** Serves one event. */
  public HttpApiResponse handle(HttpApiEvent event) {
    return HttpApiEvents.toResponse(
        event,
        HttpApiEvents.toRequest(event)
            .map(api::handle)
            .orElseGet(() -> HttpApiEvents.noRoute(event)));
  }

}
