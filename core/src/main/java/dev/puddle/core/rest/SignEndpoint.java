package dev.puddle.core.rest;

import dev.puddle.core.access.AccessPolicy;
import dev.puddle.core.access.Targets;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.catalog.VersionCache;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.signing.RequestSigner;
import dev.puddle.core.signing.S3Action;
import dev.puddle.core.signing.S3Request;
import dev.puddle.core.signing.TableReach;
import dev.puddle.core.vending.CredentialScope;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.ImmutableRemoteSignResponse;

/**
 * {@code POST …/tables/{table}/sign} ({@code signRequest}): signs an engine's S3 request if it
 * stays within the table's locations and the caller may do what it does (read: GET, HEAD, a
 * listing; write: also PUT, multipart uploads, DELETE, DeleteObjects), else 403 and nothing signed.
 *
 * <p>The hot path of remote signing, one call per S3 request of an engine: it writes nothing, and
 * reads only the caller's access with the table's row, in the one statement every request makes;
 * the row comes without its metadata while the table's reach derived from that version is kept
 * here. Signatures of reads may be reused by the client for the same URI ({@code Cache-Control:
 * private}), those of writes not.
 */
final class SignEndpoint {
  private static final String CACHE_CONTROL = "Cache-Control";

  private final RequestSigner signer;
  private final CatalogObjects objects;
  private final VersionCache<TableReach> reaches = new VersionCache<>(16L << 20);

  /** Signing with {@code signer}, or, if null, no signing at all. */
  SignEndpoint(RequestSigner signer, CatalogObjects objects) {
    this.signer = signer;
    this.objects = objects;
  }

  /** Whether this catalog signs requests: then table responses may ask engines to. */
  boolean signs() {
    return signer != null;
  }

  /** The read of the table's row the access check makes for a request to sign. */
  CatalogObjects.Lookup lookup(Request request, Warehouse warehouse) {
    if (signer == null) {
      return null;
    }
    TableIdentifier table;
    try {
      table = Scope.tableOf(request);
    } catch (RuntimeException e) {
      return null; // the request answers it as it would have
    }
    String known =
        reaches.get(warehouse, table).map(VersionCache.Entry::metadataLocation).orElse(null);
    return new CatalogObjects.Lookup(warehouse.id(), table, known);
  }

  Response signRequest(Scope scope) {
    if (signer == null) {
      throw new BadRequestException("This catalog does not sign requests");
    }
    TableIdentifier table = scope.table();
    RemoteSignRequest request = RestJson.read(scope.request().body(), RemoteSignRequest.class);
    S3Request s3 = S3Request.of(request, signer.addressing());
    scope.authorize(AccessPolicy.sign(s3.action().writes()), Targets.object(table));
    reach(scope.warehouse(), table, scope.row()).check(s3);
    Map<String, List<String>> headers =
        signer.sign(
            request.uri(),
            request.method(),
            request.region(),
            request.headers(),
            s3.action() == S3Action.DELETE_OBJECTS ? request.body() : null);
    String body =
        RestJson.write(
            ImmutableRemoteSignResponse.builder().uri(request.uri()).headers(headers).build());
    return Response.json(200, body)
        .withHeader(CACHE_CONTROL, s3.action().writes() ? "no-cache" : "private");
  }

  /** The table's reach: kept for the row's version, else derived from its metadata and kept. */
  private TableReach reach(
      Warehouse warehouse, TableIdentifier table, Optional<CatalogObject> row) {
    CatalogObject current = table(row, table);
    Optional<VersionCache.Entry<TableReach>> kept = reaches.get(warehouse, table);
    if (VersionCache.holds(kept, current)) {
      return kept.get().value();
    }
    if (current.metadataJson() == null) {
      // the version kept when the row was read went meanwhile: read it again, metadata included
      current = table(objects.find(warehouse, table, null), table);
    }
    TableBodies.TableLocation location = TableBodies.ofMetadata(current.metadataJson());
    TableReach reach =
        TableReach.of(
            table, CredentialScope.tableLocations(location.location(), location.properties()));
    reaches.put(warehouse, table, current.metadataLocation(), reach, 512);
    return reach;
  }

  private static CatalogObject table(Optional<CatalogObject> row, TableIdentifier table) {
    return row.filter(o -> o.kind() == Kind.TABLE)
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", table));
  }
}
