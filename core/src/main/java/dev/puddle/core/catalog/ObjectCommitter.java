package dev.puddle.core.catalog;

import dev.puddle.core.api.RequestScope;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.CatalogObjects.Swap;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.ChangeEvent;
import dev.puddle.core.metastore.Warehouse;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.FileIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metastore side shared by table and view operations: finds an object's current row, and
 * records a new metadata file as its current metadata, by inserting the row of a new object or
 * swapping the pointer of an existing one. A metadata file whose commit certainly failed is
 * deleted; one whose commit may have landed ({@link CommitStateUnknownException}) is kept. The
 * metastore reports every other failure, a timeout or lost connection included, only when nothing
 * was committed.
 */
final class ObjectCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(ObjectCommitter.class);

  private final Warehouse warehouse;
  private final TableIdentifier identifier;
  private final Kind kind;
  private final CatalogObjects objects;
  private final FileIO io;
  private final Change change;

  ObjectCommitter(
      Warehouse warehouse,
      TableIdentifier identifier,
      Kind kind,
      CatalogObjects objects,
      FileIO io,
      Change change) {
    this.warehouse = warehouse;
    this.identifier = identifier;
    this.kind = kind;
    this.objects = objects;
    this.io = io;
    this.change = change;
  }

  /** The object's current row, or null if no object of this kind has this name. */
  CatalogObject find() {
    return find(null);
  }

  /**
   * The object's current row, or null; its metadata JSON left out if its metadata location is
   * {@code knownLocation}.
   */
  CatalogObject find(String knownLocation) {
    return objects
        .find(warehouse, identifier, knownLocation)
        .filter(o -> o.kind() == kind)
        .orElse(null);
  }

  /**
   * Fails unless the object's location and write paths may be used ({@link RequestedLocations}):
   * within the warehouse, where Puddle may manage files, unless the object is registered, whose
   * files are someone else's. Checked before a metadata file is written there.
   */
  void checkLocation(
      CatalogObject current, boolean registering, String location, Map<String, String> properties) {
    boolean owned = current == null ? !registering : current.ownsLocation();
    RequestedLocations.checkObject(warehouse, owned, location, properties);
  }

  /**
   * Records {@code metadataLocation} as the object's current metadata: creates the object when
   * {@code current} is null, else swaps its pointer from {@code current}, recording {@code event}
   * in the same transaction. Returns the new row.
   */
  CatalogObject commit(
      CatalogObject current,
      boolean registering,
      String location,
      String metadataLocation,
      String metadataJson,
      ChangeEvent event) {
    return current == null
        ? create(location, !registering, metadataLocation, metadataJson, event, null)
        : swap(current, location, metadataLocation, metadataJson, event);
  }

  /**
   * Creates the object with {@code metadataLocation} as its current metadata, recording {@code
   * event}; {@code upload}, if not null, is writing that file meanwhile, and the create commits
   * only once it is written. Returns the new row.
   */
  CatalogObject create(
      String location,
      boolean ownsLocation,
      String metadataLocation,
      String metadataJson,
      ChangeEvent event,
      MetadataUpload upload) {
    CatalogObject row =
        new CatalogObject(
            UUID.randomUUID(),
            identifier,
            kind,
            location,
            ownsLocation,
            metadataLocation,
            metadataJson);
    try {
      objects.create(warehouse, row, event, upload == null ? () -> {} : upload::await, change);
      return row;
    } catch (CommitStateUnknownException e) {
      throw e; // the row may exist: keep its metadata file
    } catch (RuntimeException e) {
      if (upload != null) {
        upload.awaitQuietly(); // a delete must not overtake the write
      }
      if (ownsLocation) {
        deleteQuietly(metadataLocation); // a registered object's file is not ours to delete
      }
      throw e;
    }
  }

  private CatalogObject swap(
      CatalogObject current,
      String location,
      String metadataLocation,
      String metadataJson,
      ChangeEvent event) {
    boolean swapped;
    try {
      swapped =
          objects.swap(
              warehouse,
              new Swap(current, location, metadataLocation, metadataJson, event),
              change);
    } catch (CommitStateUnknownException e) {
      throw e; // the pointer may have moved to the new file: keep it
    } catch (RuntimeException e) {
      deleteQuietly(metadataLocation);
      throw e;
    }
    if (!swapped) {
      RequestScope.current().stats().commitConflicted();
      deleteQuietly(metadataLocation);
      throw new CommitFailedException(
          "Cannot commit %s: metadata location %s has changed",
          current.identifier(), current.metadataLocation());
    }
    return new CatalogObject(
        current.id(),
        current.identifier(),
        current.kind(),
        location,
        current.ownsLocation(),
        metadataLocation,
        metadataJson);
  }

  void deleteQuietly(String metadataLocation) {
    try {
      io.deleteFile(metadataLocation);
    } catch (RuntimeException e) {
      LOG.warn("Could not delete uncommitted metadata file {}", metadataLocation, e);
    }
  }
}
