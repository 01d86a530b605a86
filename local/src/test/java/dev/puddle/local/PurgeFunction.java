package dev.puddle.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.maintenance.BackgroundWork;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.MaintenanceJobs;
import dev.puddle.core.metastore.ScanPlans;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeMessage;
import dev.puddle.core.purge.PurgeProcessor;
import dev.puddle.core.purge.PurgeQueue;
import dev.puddle.functions.PurgeSweepHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.util.JsonUtil;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The purge function, which carries both purges and maintenance runs, invoked by hand as the twin
 * wires it: for tests that choose each invocation's S3 client (one that dies, say), queue and
 * clock. Also the maintenance jobs it works on, the tables they are for, and the scheduled sweep.
 */
final class PurgeFunction {
  private PurgeFunction() {}

  static MaintenanceJobs jobs() {
    return new MaintenanceJobs(TestTwin.get().database());
  }

  /** The catalog's id of a table of the warehouse, which maintenance jobs are started for. */
  static UUID tableId(String warehouse, TableIdentifier id) {
    Warehouses warehouses = new Warehouses(TestTwin.get().database());
    return new CatalogObjects(TestTwin.get().database())
        .find(warehouses.get(LocalTwin.REALM, warehouse), id)
        .orElseThrow()
        .id();
  }

  /** The purge function's processor as the twin wires it, over the given S3 client and clock. */
  static PurgeProcessor processor(S3Client client, PurgeQueue queue, Clock clock) {
    return new BackgroundWork(TestTwin.get().database())
        .processor(
            TestTwin.get().storage().io(),
            new S3Objects(client),
            queue,
            TestTwin.PURGE.maxReceives(),
            clock);
  }

  static PurgeProcessor processor(S3Client client, PurgeQueue queue) {
    return processor(client, queue, Clock.systemUTC());
  }

  /** The queue's {@code receive}th delivery of a maintenance job's message. */
  static PurgeProcessor.Delivery delivery(UUID job, int receive) {
    return new PurgeProcessor.Delivery(
        UUID.randomUUID().toString(), PurgeMessage.body(JobKind.MAINTENANCE, job), receive);
  }

  /**
   * Runs the scheduled sweep's handler now, as the twin wires it but with no grace: it sends again
   * every job whose send was lost and removes expired scan plans. Returns its answer.
   */
  static JsonNode sweep() {
    PurgeSweepHandler handler =
        new PurgeSweepHandler(
            new BackgroundWork(TestTwin.get().database())
                .sweep(
                    TestTwin.get().purge().sweepQueue(),
                    TestTwin.PURGE.sweep().withoutGrace(),
                    MaintenanceOutbox.Settings.DEFAULTS),
            new ScanPlans(TestTwin.get().database()));
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    try {
      handler.handleRequest(
          new ByteArrayInputStream("{\"source\":\"aws.events\"}".getBytes(StandardCharsets.UTF_8)),
          output,
          new LocalContext("sweep", Duration.ofSeconds(30)));
      return JsonUtil.mapper().readTree(output.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A function dying: an Error, which nothing in the processor catches. */
  static final class FunctionDied extends Error {
    FunctionDied() {
      super("The purge function died");
    }
  }

  /** An S3 client that dies at its first {@code DeleteObjects}, before S3 sees it. */
  static S3Client dyingAtFirstDelete(S3Client client) {
    return (S3Client)
        Proxy.newProxyInstance(
            S3Client.class.getClassLoader(),
            new Class<?>[] {S3Client.class},
            (proxy, method, args) -> {
              if (method.getName().equals("deleteObjects")) {
                throw new FunctionDied();
              }
              try {
                return method.invoke(client, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
