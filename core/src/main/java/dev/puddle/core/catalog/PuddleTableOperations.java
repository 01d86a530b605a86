package dev.puddle.core.catalog;

import dev.puddle.core.api.RequestScope;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Warehouse;
import org.apache.iceberg.BaseMetastoreTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileIO;

/**
 * A table's metadata in the metastore. Refreshes read the current metadata JSON stored beside the
 * pointer, never object storage; commits write the new metadata file and then swap the pointer
 * with a compare-and-swap.
 */
final class PuddleTableOperations extends BaseMetastoreTableOperations {
  private final TableIdentifier identifier;
  private final ObjectCommitter committer;
  private final FileIO io;

  /** The row the current metadata came from. */
  private CatalogObject row;

  /** A row already read, e.g. just committed: the next refresh needs no query. */
  private CatalogObject known;

  PuddleTableOperations(
      Warehouse warehouse, TableIdentifier identifier, CatalogObjects objects, FileIO io) {
    this.identifier = identifier;
    this.committer = new ObjectCommitter(warehouse, identifier, Kind.TABLE, objects, io);
    this.io = io;
  }

  /** Operations that start from a row already read, e.g. by a transaction that locked it. */
  static PuddleTableOperations of(
      Warehouse warehouse, CatalogObject row, CatalogObjects objects, FileIO io) {
    PuddleTableOperations ops = new PuddleTableOperations(warehouse, row.identifier(), objects, io);
    ops.known = row;
    return ops;
  }

  /** Writes a new metadata file for uncommitted metadata based on the current version. */
  String writeMetadata(TableMetadata metadata) {
    committer.checkLocation(row, false, metadata.location());
    return writeNewMetadataIfRequired(false, metadata);
  }

  @Override
  protected String tableName() {
    return identifier.toString();
  }

  @Override
  public FileIO io() {
    return io;
  }

  @Override
  protected void doRefresh() {
    CatalogObject found = known != null ? known : committer.find();
    known = null;
    if (found == null) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchTableException("Table does not exist: %s", identifier);
      }
      disableRefresh();
      return;
    }
    row = found;
    refreshFromMetadataLocation(
        found.metadataLocation(),
        null,
        0,
        location -> TableMetadataParser.fromJson(location, found.metadataJson()));
  }

  @Override
  protected void doCommit(TableMetadata base, TableMetadata metadata) {
    RequestScope.current().stats().commitAttempted();
    CatalogObject current = base == null ? null : row;
    // a registered table's metadata file already exists and was placed by someone else
    boolean registering = base == null && metadata.metadataFileLocation() != null;
    committer.checkLocation(current, registering, metadata.location());
    String metadataLocation = writeNewMetadataIfRequired(base == null, metadata);
    known =
        committer.commit(
            current,
            registering,
            metadata.location(),
            metadataLocation,
            TableMetadataParser.toJson(metadata));
  }
}
