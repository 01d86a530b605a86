package dev.puddle.local;

import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.purge.PurgeSweep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * One local twin shared by the tests of a JVM, on free ports, with its data in a temporary
 * directory. Each test takes a fresh warehouse, so tests never see each other's namespaces.
 *
 * <p>Its purge runs on short timings, so that redeliveries and the dead-letter queue come within
 * seconds: a 3 s function time limit, a 4 s visibility timeout, three receives.
 */
public final class TestTwin {
  /** The purge timings of the shared twin. */
  public static final LocalPurge.Options PURGE =
      new LocalPurge.Options(
          Duration.ofSeconds(3),
          Duration.ofSeconds(4),
          3,
          Duration.ofSeconds(30),
          new PurgeSweep.Settings(Duration.ofSeconds(30), Duration.ofMinutes(10), 1000));

  private static final AtomicInteger WAREHOUSES = new AtomicInteger();
  private static LocalTwin twin;

  private TestTwin() {}

  public static synchronized LocalTwin get() {
    if (twin == null) {
      try {
        Path data = Files.createTempDirectory("puddle-test-");
        twin = LocalTwin.start(new LocalTwin.Options(data, "127.0.0.1", 0, 0, 0, 0, PURGE));
        Runtime.getRuntime().addShutdownHook(new Thread(twin::close));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return twin;
  }

  /** Creates a new, empty warehouse and returns its name. */
  public static String newWarehouse(String hint) {
    return newWarehouse(hint, Map.of());
  }

  /** Creates a new, empty warehouse with catalog properties and returns its name. */
  public static String newWarehouse(String hint, Map<String, String> properties) {
    String name = hint + "-" + WAREHOUSES.incrementAndGet();
    new Warehouses(get().database())
        .ensure(LocalTwin.REALM, name, "s3://" + LocalTwin.BUCKET + "/" + name, properties);
    return name;
  }

  /** Iceberg's own REST client, pointed at a warehouse of the twin. */
  public static RESTCatalog restCatalog(String warehouse, Map<String, String> extra) {
    Map<String, String> properties = new HashMap<>();
    properties.put(CatalogProperties.URI, get().uri());
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse);
    properties.putAll(extra);
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("puddle", properties);
    return catalog;
  }
}
