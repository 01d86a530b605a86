package dev.puddle.core.rest;

import dev.puddle.core.api.Gzip;
import dev.puddle.core.api.Response;
import dev.puddle.core.catalog.VersionCache;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Warehouse;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * The bodies of full table loads ({@code snapshots=all}, no credentials) this execution
 * environment answered, with their gzip. Engines load the same tables over and over, so a load of
 * a version already answered reads only the table's row, without its metadata, and compresses
 * nothing: for a table of many snapshots that is most of a load's time.
 */
final class LoadedTables {
  /** A LoadTableResponse body and its gzip. */
  record Body(String json, byte[] gzipped) {}

  private final CatalogObjects objects;
  private final VersionCache<Body> bodies;

  LoadedTables(CatalogObjects objects, VersionCache<Body> bodies) {
    this.objects = objects;
    this.bodies = bodies;
  }

  /** A table's current row and its full load. */
  final class Load {
    private final Warehouse warehouse;
    private final CatalogObject row;
    private final Optional<VersionCache.Entry<Body>> kept;

    private Load(Warehouse warehouse, CatalogObject row, Optional<VersionCache.Entry<Body>> kept) {
      this.warehouse = warehouse;
      this.row = row;
      this.kept = kept;
    }

    String metadataLocation() {
      return row.metadataLocation();
    }

    /** The 200 response of the load, from the body kept for this version or a new one. */
    Response response() {
      Body body =
          kept.filter(entry -> entry.standsFor(row))
              .map(VersionCache.Entry::value)
              .orElseGet(
                  () -> keep(warehouse, row.identifier(), row.metadataLocation(), row.metadataJson()));
      return Response.json(200, body.json(), body.gzipped());
    }
  }

  /** The read of the table's row that {@link #load} makes, as things stand. */
  CatalogObjects.Lookup lookup(Warehouse warehouse, TableIdentifier table) {
    return new CatalogObjects.Lookup(
        warehouse.id(), table, knownLocation(bodies.get(warehouse, table)));
  }

  private static String knownLocation(Optional<VersionCache.Entry<Body>> kept) {
    return kept.map(VersionCache.Entry::metadataLocation).orElse(null);
  }

  /** The table's current row, its metadata left out if the body of that version is kept. */
  Load load(Warehouse warehouse, TableIdentifier table) {
    Optional<VersionCache.Entry<Body>> kept = bodies.get(warehouse, table);
    CatalogObject row =
        objects
            .find(warehouse, table, knownLocation(kept))
            .filter(o -> o.kind() == Kind.TABLE)
            .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", table));
    return new Load(warehouse, row, kept);
  }

  /**
   * The response of a request that made {@code metadataLocation} the table's current metadata (a
   * create or commit), kept as the body of the next loads of that version.
   */
  Response committed(
      Warehouse warehouse, TableIdentifier table, String metadataLocation, String metadataJson) {
    Body body = keep(warehouse, table, metadataLocation, metadataJson);
    return Response.json(200, body.json(), body.gzipped());
  }

  private Body keep(
      Warehouse warehouse, TableIdentifier table, String metadataLocation, String metadataJson) {
    String json = RestJson.loadTableResponse(metadataLocation, metadataJson);
    Body body = new Body(json, Gzip.compress(json));
    bodies.put(warehouse, table, metadataLocation, body, json.length() + body.gzipped().length);
    return body;
  }
}
