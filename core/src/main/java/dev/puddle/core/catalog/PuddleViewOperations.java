package dev.puddle.core.catalog;

import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Warehouse;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.view.BaseViewOperations;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;

/** A view's metadata in the metastore; the counterpart of {@link PuddleTableOperations}. */
final class PuddleViewOperations extends BaseViewOperations {
  private final Warehouse warehouse;
  private final TableIdentifier identifier;
  private final CatalogObjects objects;
  private final ObjectCommitter committer;
  private final FileIO io;

  private CatalogObject row;
  private CatalogObject committed;

  PuddleViewOperations(
      Warehouse warehouse, TableIdentifier identifier, CatalogObjects objects, FileIO io) {
    this.warehouse = warehouse;
    this.identifier = identifier;
    this.objects = objects;
    this.committer = new ObjectCommitter(warehouse, objects, io);
    this.io = io;
  }

  @Override
  protected String viewName() {
    return identifier.toString();
  }

  @Override
  protected FileIO io() {
    return io;
  }

  @Override
  protected void doRefresh() {
    CatalogObject found = committed;
    committed = null;
    if (found == null) {
      found = objects.find(warehouse, identifier).filter(o -> o.kind() == Kind.VIEW).orElse(null);
    }
    if (found == null) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchViewException("View does not exist: %s", identifier);
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
        location -> ViewMetadataParser.fromJson(location, source.metadataJson()));
  }

  @Override
  protected void doCommit(ViewMetadata base, ViewMetadata metadata) {
    boolean registering = base == null && metadata.metadataFileLocation() != null;
    if (!registering && (row == null || row.ownsLocation())) {
      committer.checkLocation(metadata.location());
    }
    String metadataLocation = writeNewMetadataIfRequired(metadata);
    String json = ViewMetadataParser.toJson(metadata);
    if (base == null) {
      committed =
          committer.create(
              identifier,
              Kind.VIEW,
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
