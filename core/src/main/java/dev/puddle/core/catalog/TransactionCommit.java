package dev.puddle.core.catalog;

import dev.puddle.core.api.RequestScope;
import dev.puddle.core.events.CatalogEvents;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.CatalogObjects.Swap;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Warehouse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * Commits changes to several tables atomically ({@code POST /v1/{prefix}/transactions/commit}):
 * every table's row is locked, every change is validated against the locked metadata and applied
 * with iceberg-core, and all pointers are swapped in one database transaction. Either all changes
 * land or none does; a requirement that does not hold fails the whole request with 409.
 */
public final class TransactionCommit {
  private final Warehouse warehouse;
  private final CatalogObjects objects;
  private final FileIO io;
  private final VersionCache<TableMetadata> parsed;
  private final Change change;

  TransactionCommit(
      Warehouse warehouse,
      CatalogObjects objects,
      FileIO io,
      VersionCache<TableMetadata> parsed,
      Change change) {
    this.warehouse = warehouse;
    this.objects = objects;
    this.io = io;
    this.parsed = parsed;
    this.change = change;
  }

  /** Commits a request its endpoint validated ({@link CommitTransactionRequest#validate}). */
  public void commit(CommitTransactionRequest request) {
    RequestScope.current().stats().commitAttempted();
    List<TableIdentifier> identifiers = new ArrayList<>();
    for (UpdateTableRequest change : request.tableChanges()) {
      if (TableCommit.creates(change.requirements())) {
        throw new BadRequestException(
            "Cannot create table %s in a multi-table transaction", change.identifier());
      }
      identifiers.add(change.identifier());
    }

    List<String> written = new ArrayList<>();
    try {
      objects.swapAll(warehouse, identifiers, locked -> apply(request, locked, written), change);
    } catch (CommitStateUnknownException e) {
      throw e; // the database transaction may or may not have committed: keep the files
    } catch (RuntimeException e) {
      written.forEach(this::deleteQuietly);
      throw e;
    }
  }

  private List<Swap> apply(
      CommitTransactionRequest request, List<CatalogObject> locked, List<String> written) {
    Map<TableIdentifier, PuddleTableOperations> ops = new LinkedHashMap<>();
    Map<TableIdentifier, TableMetadata> updated = new LinkedHashMap<>();
    Map<TableIdentifier, CatalogObject> rows = new LinkedHashMap<>();
    for (CatalogObject row : locked) {
      PuddleTableOperations tableOps =
          PuddleTableOperations.of(warehouse, row, objects, io, parsed);
      ops.put(row.identifier(), tableOps);
      rows.put(row.identifier(), row);
      updated.put(row.identifier(), tableOps.current());
    }

    for (UpdateTableRequest change : request.tableChanges()) {
      TableMetadata base = updated.get(change.identifier());
      TableCommit.validate(change, base);
      updated.put(change.identifier(), TableCommit.applied(change, base));
    }

    List<Swap> swaps = new ArrayList<>();
    for (Map.Entry<TableIdentifier, TableMetadata> entry : updated.entrySet()) {
      PuddleTableOperations tableOps = ops.get(entry.getKey());
      TableMetadata metadata = entry.getValue();
      if (metadata.changes().isEmpty()) {
        continue; // no change to this table
      }
      String metadataLocation = tableOps.writeMetadata(metadata);
      written.add(metadataLocation);
      swaps.add(
          new Swap(
              rows.get(entry.getKey()),
              metadata.location(),
              metadataLocation,
              TableMetadataParser.toJson(metadata),
              CatalogEvents.updateTable(warehouse, entry.getKey(), metadata, metadataLocation)));
    }
    return swaps;
  }

  private void deleteQuietly(String location) {
    try {
      io.deleteFile(location);
    } catch (RuntimeException ignored) {
      // an orphaned metadata file is harmless: a purge of the table removes it
    }
  }
}
