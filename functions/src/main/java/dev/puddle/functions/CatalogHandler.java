package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.puddle.core.rest.CatalogApi;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import org.crac.Core;
import org.crac.Resource;

/**
 * The Lambda entry point of the Iceberg REST catalog: an API Gateway HTTP API event (payload format
 * 2.0) in, its response out. Wiring happens once per execution environment, in the init phase, from
 * the environment variables ({@code docs/configuration.md}). Each request only converts and
 * delegates. With SnapStart, {@link #beforeCheckpoint} primes the function and {@link
 * #afterRestore} drops what must not outlive the snapshot.
 */
public final class CatalogHandler implements RequestStreamHandler, Resource {
  /** Built in the execution environment's init phase. */
  private static final class FromEnvironment {
    static final CatalogWiring WIRING = CatalogWiring.fromEnvironment(System.getenv());
  }

  private final CatalogFunction function;
  private final CatalogWiring wiring;

  /** The handler Lambda instantiates, wired from the process environment. */
  public CatalogHandler() {
    this(FromEnvironment.WIRING);
  }

  /** A handler wired from the given environment variables, as Lambda would from its own. */
  public CatalogHandler(Map<String, String> environment) {
    this(CatalogWiring.fromEnvironment(environment));
  }

  /** A handler serving every function group over an API: the local twin and tests. */
  public CatalogHandler(CatalogApi api) {
    this(api, RequestLog.embeddedMetrics("Puddle", System.out));
  }

  /** A handler serving every function group over an API, its request lines in {@code log}. */
  public CatalogHandler(CatalogApi api, RequestLog log) {
    this.function = CatalogFunction.allGroups(api, api.settings().realm(), log);
    this.wiring = null;
  }

  private CatalogHandler(CatalogWiring wiring) {
    this.function = wiring.function();
    this.wiring = wiring;
    Core.getGlobalContext().register(this);
  }

  /**
   * The local twin's handler: every HTTP group, wired from {@code parts} as a function is from its
   * environment, and taken once through SnapStart's hooks (primed, then restored) before it serves,
   * so the twin runs the path a deployed function's snapshot runs.
   */
  public static CatalogHandler primed(CatalogWiring.Parts parts) {
    CatalogHandler handler = new CatalogHandler(CatalogWiring.of(parts));
    handler.wiring.beforeCheckpoint();
    handler.wiring.afterRestore();
    return handler;
  }

  /** Closes the handler's metastore connections: the twin, when it stops. */
  public void close() {
    if (wiring != null) {
      wiring.database().close();
    }
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    HttpApiEvent event;
    try {
      event = HttpApiJson.read(input);
    } catch (StreamConstraintsException e) {
      // a string over HttpApiJson.MAX_EVENT_STRING_CHARS: a body beyond API Gateway's limit
      HttpApiJson.write(function.tooLarge(), output);
      return;
    }
    HttpApiJson.write(function.handle(event, context), output);
  }

  @Override
  public void beforeCheckpoint(org.crac.Context<? extends Resource> context) {
    if (wiring != null) {
      wiring.beforeCheckpoint();
    }
  }

  @Override
  public void afterRestore(org.crac.Context<? extends Resource> context) {
    if (wiring != null) {
      wiring.afterRestore();
    }
  }
}
