package dev.puddle.core.catalog;

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
  private final Warehouse warehouse;
  private final TableIdentifier identifier;
  private final CatalogObjects objects;
  private final ObjectCommitter committer;
  private final FileIO io;

  /** The row the current metadata came from. */
  private CatalogObject row;

  /** The row this instance just committed: the next refresh needs no query. */
  private CatalogObject committed;

  PuddleTableOperations(
      Warehouse warehouse, TableIdentifier identifier, CatalogObjects objects, FileIO io) {
    this.warehouse = warehouse;
    this.identifier = identifier;
    this.objects = objects;
    this.committer = new ObjectCommitter(warehouse, objects, io);
    this.io = io;
  }

  /** Operations that start from a row already read, e.g. by a transaction that locked it. */
  static PuddleTableOperations of(
      Warehouse warehouse, CatalogObject row, CatalogObjects objects, FileIO io) {
    PuddleTableOperations ops = new PuddleTableOperations(warehouse, row.identifier(), objects, io);
    ops.committed = row;
    return ops;
  }

  /** Writes a new metadata file for uncommitted metadata based on the current version. */
  String writeMetadata(TableMetadata metadata) {
    if (row.ownsLocation()) {
      committer.checkLocation(metadata.location());
    }
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
    CatalogObject found = committed;
    committed = null;
    if (found == null) {
      found = objects.find(warehouse, identifier).filter(o -> o.kind() == Kind.TABLE).orElse(null);
    }
    if (found == null) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchTableException("Table does not exist: %s", identifier);
      }
      disableRefresh();
      return;
    }
    CatalogObject source = found;
    row = source;
    refreshFromMetadataLocation(
        source.metadataLocation(),
        null,
        0,
        location -> TableMetadataParser.fromJson(location, source.metadataJson()));
  }

  @Override
  protected void doCommit(TableMetadata base, TableMetadata metadata) {
    boolean newTable = base == null;
    // a registered table's metadata file already exists and was placed by someone else
    boolean registering = newTable && metadata.metadataFileLocation() != null;
    if (!registering && (row == null || row.ownsLocation())) {
      committer.checkLocation(metadata.location());
    }
    String metadataLocation = writeNewMetadataIfRequired(newTable, metadata);
    String json = TableMetadataParser.toJson(metadata);
    if (newTable) {
      committed =
          committer.create(
              identifier,
              Kind.TABLE,
              metadata.location(),
              !registering,
              metadataLocation,
              json,
              !registering);
    } else {
      committed = committer.swap(row, metadata.location(), metadataLocation, json);
    }
  }
}
