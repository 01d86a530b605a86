package dev.puddle.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.RESTCatalogProperties;

/**
 * One catalog under test, seen as an engine sees it: Iceberg's {@link RESTCatalog} client with the
 * same properties on both sides but for the URI and the warehouse.
 */
public final class Side implements AutoCloseable {
  private final String name;
  private final String uri;
  private final Optional<String> warehouse;
  private final String warehouseLocation;
  private final Map<String, String> clientProperties;
  private RESTCatalog client;
  private RESTCatalog unpagedClient;

  /**
   * @param name how results name this side
   * @param uri the catalog endpoint, on loopback
   * @param warehouse the warehouse a client names, if the catalog wants one
   * @param warehouseLocation where the catalog keeps its tables, for metadata files written ahead
   *     of a {@code registerTable}
   * @param clientProperties everything else a client needs: FileIO, S3, paging
   */
  public Side(
      String name,
      String uri,
      Optional<String> warehouse,
      String warehouseLocation,
      Map<String, String> clientProperties) {
    this.name = name;
    this.uri = uri;
    this.warehouse = warehouse;
    this.warehouseLocation = warehouseLocation;
    this.clientProperties = Map.copyOf(clientProperties);
  }

  public String name() {
    return name;
  }

  public String warehouseLocation() {
    return warehouseLocation;
  }

  public Map<String, String> clientProperties() {
    return clientProperties;
  }

  /**
   * The side's long-lived client, shared by the measurements that run one operation at a time, so
   * that its HTTP connections stay warm from round to round.
   */
  public synchronized RESTCatalog client() {
    if (client == null) {
      client = newClient();
    }
    return client;
  }

  /**
   * A long-lived client like {@link #client()} but without {@code rest-page-size}: its listings ask
   * for no page size and get the server's default.
   */
  public synchronized RESTCatalog unpagedClient() {
    if (unpagedClient == null) {
      Map<String, String> properties = new HashMap<>(clientProperties);
      properties.remove(RESTCatalogProperties.PAGE_SIZE);
      unpagedClient = newClient(properties);
    }
    return unpagedClient;
  }

  /** A client of its own, for a concurrent writer; the caller closes it. */
  public RESTCatalog newClient() {
    return newClient(clientProperties);
  }

  private RESTCatalog newClient(Map<String, String> clientProperties) {
    Map<String, String> properties = new HashMap<>(clientProperties);
    properties.put(CatalogProperties.URI, uri);
    warehouse.ifPresent(value -> properties.put(CatalogProperties.WAREHOUSE_LOCATION, value));
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize(name, properties);
    return catalog;
  }

  @Override
  public synchronized void close() {
    for (RESTCatalog open : new RESTCatalog[] {client, unpagedClient}) {
      if (open != null) {
        try {
          open.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    client = null;
    unpagedClient = null;
  }

  @Override
  public String toString() {
    return name;
  }
}
