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
 * format 2.0) in, its response out. Wiring happens once per execution environment, in the init
 * phase, from the environment variables (see the README); it also registers the SnapStart hooks.
 * Each request only converts and delegates.
 */
public final class CatalogHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** Built in the execution environment's init phase. */
  private static final class FromEnvironment {
    static final CatalogWiring WIRING = CatalogWiring.fromEnvironment(System.getenv());
  }

  private final CatalogFunction function;

  public CatalogHandler() {
    this(FromEnvironment.WIRING.function());
  }

  /** A handler serving every function group over an API: the local twin and tests. */
  public CatalogHandler(CatalogApi api) {
    this(CatalogFunction.allGroups(api, "default"));
  }

  CatalogHandler(CatalogFunction function) {
    this.function = function;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    HttpApiEvent event = JSON.readValue(input, HttpApiEvent.class);
    JSON.writeValue(output, function.handle(event, context));
  }
}
