package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.metastore.CatalogExport;
import dev.puddle.core.recovery.ExportStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;

/**
 * The Lambda entry point of the periodic catalog export, invoked on a schedule (an EventBridge
 * rule; the event's content is not used): writes the catalog's principals, roles, grants,
 * warehouses and namespaces to the warehouse bucket, for a rebuild ({@link RebuildHandler}).
 * Idempotent: a failed run leaves the previous export the latest, and the function's error alarm
 * fires. Answers {@code {"location":"s3://…"}}.
 */
public final class CatalogExportHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Built in the execution environment's init phase, from its environment variables. */
  private static final class FromEnvironment {
    static final CatalogExportHandler HANDLER = RecoveryEnvironment.exportHandler(System.getenv());
  }

  private final CatalogExport export;
  private final ExportStore exports;
  private final Clock clock;

  public CatalogExportHandler() {
    this(FromEnvironment.HANDLER.export, FromEnvironment.HANDLER.exports, Clock.systemUTC());
  }

  public CatalogExportHandler(CatalogExport export, ExportStore exports, Clock clock) {
    this.export = export;
    this.exports = exports;
    this.clock = clock;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    input.transferTo(OutputStream.nullOutputStream());
    String location = exports.write(export, clock);
    JSON.writeValue(output, JSON.createObjectNode().put("location", location));
  }
}
