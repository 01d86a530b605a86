package dev.puddle.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.WarehouseLayout;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.metastore.CatalogExport;
import dev.puddle.core.metastore.CatalogRestore;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.recovery.ExportStore;
import dev.puddle.core.recovery.Rebuild;
import dev.puddle.core.recovery.WarehouseScan;
import dev.puddle.core.storage.Storage;
import dev.puddle.functions.CatalogExportHandler;
import dev.puddle.functions.RebuildHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The recovery side of the twin, laid out as on AWS: the catalog export handler on a schedule (the
 * stack's EventBridge rule), writing to {@code s3://warehouse/_puddle/export}, and the rebuild
 * handler, which {@code puddle-twin --rebuild} invokes as an operator's {@code aws lambda invoke}
 * would.
 */
public final class LocalRecovery implements AutoCloseable {
  /** Where the twin's exports live: its bucket, beside (not inside) the default warehouse. */
  public static final String EXPORT_LOCATION =
      "s3://" + LocalTwin.BUCKET + "/" + WarehouseLayout.EXPORT_FOLDER;

  /** How often the twin exports the catalog, as the stack's default schedule does. */
  public static final Duration EXPORT_INTERVAL = Duration.ofHours(1);

  private static final Duration TIMEOUT = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final S3Objects s3;
  private final CatalogExportHandler export;
  private final RebuildHandler rebuild;
  private final ScheduledExecutorService schedule;

  private LocalRecovery(Database database, Storage storage) {
    s3 = new S3Objects(S3Objects.client(storage.clientProperties()));
    ExportStore exports = new ExportStore(s3, EXPORT_LOCATION);
    export = new CatalogExportHandler(new CatalogExport(database), exports, Clock.systemUTC());
    rebuild =
        new RebuildHandler(
            new Rebuild(new CatalogRestore(database), new WarehouseScan(s3), exports));
    schedule = LocalSchedule.every("puddle-catalog-export", EXPORT_INTERVAL, export, TIMEOUT);
  }

  static LocalRecovery start(Database database, Storage storage) {
    return new LocalRecovery(database, storage);
  }

  /** Exports the catalog now, as a scheduled run does; answers the handler's JSON. */
  public ObjectNode exportNow() {
    return invoke(export, "{}");
  }

  /** Rebuilds the metastore from the warehouse; answers the report, or {@code {"error":…}}. */
  public ObjectNode rebuild(boolean force) {
    return invoke(rebuild, "{\"force\":" + force + "}");
  }

  private static ObjectNode invoke(
      com.amazonaws.services.lambda.runtime.RequestStreamHandler handler, String event) {
    try {
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      handler.handleRequest(
          new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)),
          output,
          new LocalContext(UUID.randomUUID().toString(), TIMEOUT));
      return (ObjectNode) JSON.readTree(output.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    schedule.shutdownNow();
    s3.close();
  }
}
