package dev.puddle.core.rest;

import dev.puddle.core.access.CallerAccess;
import dev.puddle.core.api.Request;
import dev.puddle.core.catalog.PuddleCatalog;
import dev.puddle.core.metastore.Warehouse;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What a catalog request addresses: its warehouse (from the prefix) and that warehouse's catalog;
 * and what its caller may do there.
 */
record Scope(Warehouse warehouse, PuddleCatalog catalog, Request request, CallerAccess access) {

  Namespace namespace() {
    return namespaceOf(request);
  }

  TableIdentifier table() {
    return tableOf(request);
  }

  static Namespace namespaceOf(Request request) {
    return Names.namespace(request.pathParameter("namespace").orElse(""));
  }

  static TableIdentifier tableOf(Request request) {
    return TableIdentifier.of(
        namespaceOf(request), Names.segment(request.pathParameter("table").orElseThrow()));
  }

  TableIdentifier view() {
    return TableIdentifier.of(
        namespace(), Names.segment(request.pathParameter("view").orElseThrow()));
  }
}
