package dev.puddle.core.rest;

import dev.puddle.core.api.Gzip;
import dev.puddle.core.api.Response;
import dev.puddle.core.catalog.VersionCache;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.planning.PlanningSettings;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * The responses of full table loads ({@code snapshots=all}, no credentials) this execution
 * environment answered: body, gzip and entity tag. Engines load the same tables over and over, so a
 * load of a version already answered reads only the table's row, without its metadata, and builds,
 * hashes and compresses nothing: for a table of many snapshots that is most of a load's time.
 */
final class LoadedTables {
  private final CatalogObjects objects;
  private final VersionCache<Response> responses;

  LoadedTables(CatalogObjects objects, VersionCache<Response> responses) {
    this.objects = objects;
    this.responses = responses;
  }

  /** A table's current row and its full load. */
  final class Load {
    private final Warehouse warehouse;
    private final CatalogObject row;
    private final Optional<Response> kept;
    private final String etag;

    private Load(
        Warehouse warehouse, CatalogObject row, Optional<VersionCache.Entry<Response>> kept) {
      this.warehouse = warehouse;
      this.row = row;
      this.kept = kept.filter(entry -> entry.standsFor(row)).map(VersionCache.Entry::value);
      this.etag =
          this.kept
              .map(response -> response.headers().get(ETags.HEADER))
              .orElseGet(() -> etagOf(row.metadataLocation()));
    }

    /** The entity tag of this version's response. */
    String etag() {
      return etag;
    }

    /** The 200 response of the load, with its tag: the one kept for this version or a new one. */
    Response response() {
      return kept.orElseGet(
          () ->
              keep(warehouse, row.identifier(), row.metadataLocation(), row.metadataJson(), etag));
    }
  }

  /** The read of the table's row that {@link #load} makes, as things stand. */
  CatalogObjects.Lookup lookup(Warehouse warehouse, TableIdentifier table) {
    return new CatalogObjects.Lookup(
        warehouse.id(), table, knownLocation(responses.get(warehouse, table)));
  }

  private static String knownLocation(Optional<VersionCache.Entry<Response>> kept) {
    return kept.map(VersionCache.Entry::metadataLocation).orElse(null);
  }

  /**
   * The load of a table from its current row, as read with the caller's access through {@link
   * #lookup}: its metadata left out if the body of that version was kept.
   */
  Load load(Warehouse warehouse, TableIdentifier table, Optional<CatalogObject> row) {
    CatalogObject current = table(row, table);
    Optional<VersionCache.Entry<Response>> kept = responses.get(warehouse, table);
    if (current.metadataJson() == null && !VersionCache.holds(kept, current)) {
      // the version kept when the row was read went meanwhile (another request kept a newer
      // one): read the row again, metadata included
      current = table(objects.find(warehouse, table, null), table);
    }
    return new Load(warehouse, current, kept);
  }

  private static CatalogObject table(Optional<CatalogObject> row, TableIdentifier table) {
    return row.filter(o -> o.kind() == Kind.TABLE)
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", table));
  }

  /**
   * The response of a request that made {@code metadataLocation} the table's current metadata (a
   * create or commit), kept as the response of the next loads of that version. The request built it
   * already, while its transaction waited for the metadata file's upload ({@link TableEndpoints}):
   * that one is answered. Kept before the commit, it stood for no row until then, and stands for
   * none if the commit failed: every location names a version of its own.
   */
  Response committed(
      Warehouse warehouse, TableIdentifier table, String metadataLocation, String metadataJson) {
    return responses
        .get(warehouse, table)
        .filter(kept -> kept.metadataLocation().equals(metadataLocation))
        .map(VersionCache.Entry::value)
        .orElseGet(
            () -> keep(warehouse, table, metadataLocation, metadataJson, etagOf(metadataLocation)));
  }

  private Response keep(
      Warehouse warehouse,
      TableIdentifier table,
      String metadataLocation,
      String metadataJson,
      String etag) {
    String json =
        RestJson.loadTableResponse(
            metadataLocation,
            metadataJson,
            PlanningSettings.tableConfig(TableBodies.ofMetadata(metadataJson).properties()));
    Response response =
        new Response(
            200,
            Map.of("content-type", Response.JSON, ETags.HEADER, etag),
            json,
            Gzip.compress(json));
    responses.put(
        warehouse,
        table,
        metadataLocation,
        response,
        json.length() + response.gzippedBody().length);
    return response;
  }

  private static String etagOf(String metadataLocation) {
    return ETags.of(metadataLocation, TableEndpoints.SNAPSHOTS_ALL);
  }
}
