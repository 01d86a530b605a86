package dev.puddle.core.catalog;

import dev.puddle.core.api.RequestScope;
import dev.puddle.core.events.CatalogEvents;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.ChangeEvent;
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
  private final ObjectCommitter committer;
  private final FileIO io;

  private CatalogObject row;
  private CatalogObject known;

  PuddleViewOperations(
      Warehouse warehouse,
      TableIdentifier identifier,
      CatalogObjects objects,
      FileIO io,
      Change change) {
    this.warehouse = warehouse;
    this.identifier = identifier;
    this.committer = new ObjectCommitter(warehouse, identifier, Kind.VIEW, objects, io, change);
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
    CatalogObject found = known != null ? known : committer.find();
    known = null;
    if (found == null) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchViewException("View does not exist: %s", identifier);
      }
      disableRefresh();
      return;
    }
    row = found;
    refreshFromMetadataLocation(
        found.metadataLocation(),
        null,
        0,
        location -> ViewMetadataParser.fromJson(location, found.metadataJson()));
  }

  @Override
  protected void doCommit(ViewMetadata base, ViewMetadata metadata) {
    RequestScope.current().stats().commitAttempted();
    CatalogObject current = base == null ? null : row;
    boolean registering = base == null && metadata.metadataFileLocation() != null;
    committer.checkLocation(current, registering, metadata.location(), metadata.properties());
    String metadataLocation = writeNewMetadataIfRequired(metadata);
    // the proposal has no register-view: a registered view is created, as far as the feed goes
    ChangeEvent event =
        current == null
            ? CatalogEvents.createView(warehouse, identifier, metadata, metadataLocation)
            : CatalogEvents.updateView(warehouse, identifier, metadata, metadataLocation);
    known =
        committer.commit(
            current,
            registering,
            metadata.location(),
            metadataLocation,
            ViewMetadataParser.toJson(metadata),
            event);
  }
}
