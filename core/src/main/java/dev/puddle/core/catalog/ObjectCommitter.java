package dev.puddle.core.catalog;

import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Locations;
import dev.puddle.core.metastore.Warehouse;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.io.FileIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a new metadata file as the current metadata of a table or view: inserts the row of a
 * new object, or swaps the pointer of an existing one. A metadata file whose commit certainly
 * failed is deleted; one whose commit may have landed is kept.
 */
final class ObjectCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(ObjectCommitter.class);

  private final Warehouse warehouse;
  private final CatalogObjects objects;
  private final FileIO io;

  ObjectCommitter(Warehouse warehouse, CatalogObjects objects, FileIO io) {
    this.warehouse = warehouse;
    this.objects = objects;
    this.io = io;
  }

  /** Inserts a new object and returns its row. */
  CatalogObject create(
      TableIdentifier identifier,
      Kind kind,
      String location,
      boolean ownsLocation,
      String metadataLocation,
      String metadataJson,
      boolean wroteFile) {
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
      objects.create(warehouse, row);
      return row;
    } catch (ServiceUnavailableException e) {
      throw new CommitStateUnknownException(e);
    } catch (RuntimeException e) {
      if (wroteFile) {
        deleteQuietly(metadataLocation);
      }
      throw e;
    }
  }

  /** Swaps the pointer of an existing object from {@code current}; returns the new row. */
  CatalogObject swap(
      CatalogObject current, String location, String metadataLocation, String metadataJson) {
    boolean swapped;
    try {
      swapped =
          objects.swap(
              warehouse,
              current,
              current.metadataLocation(),
              location,
              metadataLocation,
              metadataJson);
    } catch (ServiceUnavailableException e) {
      throw new CommitStateUnknownException(e);
    } catch (RuntimeException e) {
      deleteQuietly(metadataLocation);
      throw e;
    }
    if (!swapped) {
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

  /**
   * Fails unless a location lies within the warehouse, where Puddle may manage files. Checked
   * before any metadata file is written there.
   */
  void checkLocation(String location) {
    if (!Locations.isWithin(location, warehouse.location())) {
      throw new BadRequestException(
          "Location %s is outside the warehouse location %s", location, warehouse.location());
    }
  }

  void deleteQuietly(String metadataLocation) {
    try {
      io.deleteFile(metadataLocation);
    } catch (RuntimeException e) {
      LOG.warn("Could not delete uncommitted metadata file {}", metadataLocation, e);
    }
  }
}
