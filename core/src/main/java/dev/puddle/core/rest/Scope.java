package dev.puddle.core.rest;

import dev.puddle.core.access.AccessPolicy;
import dev.puddle.core.access.CallerAccess;
import dev.puddle.core.access.Operation;
import dev.puddle.core.access.Targets;
import dev.puddle.core.api.Request;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.catalog.PuddleCatalog;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Listing;
import dev.puddle.core.metastore.Warehouse;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A request as the pipeline hands it to its endpoint, once its caller is authenticated and what its
 * path decides is authorized: the warehouse it addresses (null for the realm-wide management
 * routes), the caller's access there, the request's catalog over the warehouse (null outside the
 * Iceberg routes), and who its changes are made by, under which request id and idempotency mark
 * (what each change writes in its own transaction besides itself). For a load of all snapshots, a
 * commit and a signing, {@code row} is the table's row, read in the statement that read the access
 * (empty: there is no such table or view); for every other request it is empty and unread. For a
 * listing, {@code listed} is its first page if it was read in that statement too.
 */
record Scope(
    Request request,
    Caller caller,
    Warehouse warehouse,
    CallerAccess access,
    Optional<CatalogObject> row,
    Optional<Listing.Read> listed,
    Change change,
    PuddleCatalog catalog) {

  /** Throws 403 unless the caller may perform {@code operation} on {@code targets}. */
  void authorize(Operation operation, Targets targets) {
    AccessPolicy.authorize(operation, access, targets);
  }

  /** Whether the caller may perform {@code operation} on {@code targets}. */
  boolean allows(Operation operation, Targets targets) {
    return AccessPolicy.allows(operation, access, targets);
  }

  Namespace namespace() {
    return namespaceOf(request);
  }

  TableIdentifier table() {
    return tableOf(request);
  }

  TableIdentifier view() {
    return viewOf(request);
  }

  static TableIdentifier viewOf(Request request) {
    return TableIdentifier.of(
        namespaceOf(request), Names.segment(request.pathParameter("view").orElseThrow()));
  }

  static Namespace namespaceOf(Request request) {
    return Names.namespace(request.pathParameter("namespace").orElse(""));
  }

  static TableIdentifier tableOf(Request request) {
    return TableIdentifier.of(
        namespaceOf(request), Names.segment(request.pathParameter("table").orElseThrow()));
  }

  /**
   * What the request's path and query address, for the operation they decide: the parent of a
   * namespace listing, the path's namespace, table or view.
   */
  static Targets targetsOf(Request request) {
    if (request.pathParameter("table").isPresent()) {
      return Targets.object(tableOf(request));
    }
    if (request.pathParameter("view").isPresent()) {
      return Targets.object(viewOf(request));
    }
    if (request.pathParameter("namespace").isPresent()) {
      return Targets.namespace(namespaceOf(request));
    }
    return Targets.namespace(Names.namespace(request.queryParameter("parent").orElse(null)));
  }
}
