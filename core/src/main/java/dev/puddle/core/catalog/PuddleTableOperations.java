package dev.puddle.core.catalog;

import dev.puddle.core.api.RequestScope;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Warehouse;
import java.util.Optional;
import org.apache.iceberg.BaseMetastoreTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileIO;

/**
 * A table's metadata in the metastore. Refreshes read the current metadata JSON stored beside the
 * pointer, never object storage, and only when this execution environment has not parsed that
 * version already (the {@link VersionCache}); commits write the new metadata file and then swap
 * the pointer with a compare-and-swap.
 */
final class PuddleTableOperations extends BaseMetastoreTableOperations {
  /**
   * Parsed metadata weighs several times its JSON; an estimate is enough to bound the cache.
   */
  private static final int PARSED_WEIGHT_PER_CHAR = 4;

  private final Warehouse warehouse;
  private final TableIdentifier identifier;
  private final ObjectCommitter committer;
  private final FileIO io;
  private final VersionCache<TableMetadata> parsed;

  /** The row the current metadata came from. */
  private CatalogObject row;

  /** A row already read, e.g. just committed: the next refresh needs no query. */
  private CatalogObject known;

  /** Where a new metadata file is written while it is being staged: memory. */
  private StagingFileIO staging;

  PuddleTableOperations(
      Warehouse warehouse,
      TableIdentifier identifier,
      CatalogObjects objects,
      FileIO io,
      VersionCache<TableMetadata> parsed) {
    this.warehouse = warehouse;
    this.identifier = identifier;
    this.committer = new ObjectCommitter(warehouse, identifier, Kind.TABLE, objects, io);
    this.io = io;
    this.parsed = parsed;
  }

  /** Operations that start from a row already read, e.g. by a transaction that locked it. */
  static PuddleTableOperations of(
      Warehouse warehouse,
      CatalogObject row,
      CatalogObjects objects,
      FileIO io,
      VersionCache<TableMetadata> parsed) {
    PuddleTableOperations ops =
        new PuddleTableOperations(warehouse, row.identifier(), objects, io, parsed);
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
    return staging != null ? staging : io;
  }

  /** A new metadata file written as iceberg-core names and writes it, uploaded in background. */
  private record StagedMetadata(String location, MetadataUpload upload) {}

  private StagedMetadata stageNewMetadata(TableMetadata metadata) {
    // iceberg-core picks the file's name and writes its bytes, into memory here
    staging = new StagingFileIO();
    String location;
    byte[] bytes;
    try {
      location = writeNewMetadataIfRequired(false, metadata);
      bytes = staging.written(location);
    } finally {
      staging = null;
    }
    return new StagedMetadata(location, MetadataUpload.start(io, location, bytes));
  }

  @Override
  protected void doRefresh() {
    Optional<VersionCache.Entry<TableMetadata>> kept = parsed.get(warehouse, identifier);
    CatalogObject found = known;
    known = null;
    if (found == null) {
      // the metadata JSON is left out exactly when the version kept is current
      found = committer.find(kept.map(VersionCache.Entry::metadataLocation).orElse(null));
    }
    if (found == null) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchTableException("Table does not exist: %s", identifier);
      }
      disableRefresh();
      return;
    }
    CatalogObject current = found;
    row = current;
    refreshFromMetadataLocation(
        current.metadataLocation(),
        null,
        0,
        location ->
            kept.filter(entry -> entry.standsFor(current))
                .map(VersionCache.Entry::value)
                .orElseGet(() -> parse(current)));
  }

  private TableMetadata parse(CatalogObject current) {
    TableMetadata metadata =
        TableMetadataParser.fromJson(current.metadataLocation(), current.metadataJson());
    keep(current, metadata);
    return metadata;
  }

  private void keep(CatalogObject current, TableMetadata metadata) {
    parsed.put(
        warehouse,
        identifier,
        current.metadataLocation(),
        metadata,
        (long) current.metadataJson().length() * PARSED_WEIGHT_PER_CHAR);
  }

  @Override
  protected void doCommit(TableMetadata base, TableMetadata metadata) {
    RequestScope.current().stats().commitAttempted();
    CatalogObject current = base == null ? null : row;
    // a registered table's metadata file already exists and was placed by someone else
    boolean registering = base == null && metadata.metadataFileLocation() != null;
    committer.checkLocation(current, registering, metadata.location());
    if (current == null) {
      String metadataLocation = writeNewMetadataIfRequired(true, metadata);
      String json = MetadataJson.remember(metadataLocation, TableMetadataParser.toJson(metadata));
      known = committer.commit(null, registering, metadata.location(), metadataLocation, json);
    } else {
      // the file goes to object storage while the swap's statements run (a PUT takes longer)
      StagedMetadata staged = stageNewMetadata(metadata);
      String json = MetadataJson.remember(staged.location(), TableMetadataParser.toJson(metadata));
      known =
          committer.swap(
              current, metadata.location(), staged.location(), json, staged.upload());
    }
    // the committed metadata is the next refresh's: no need to parse what was just written
    keep(
        known,
        TableMetadata.buildFrom(metadata)
            .withMetadataLocation(known.metadataLocation())
            .discardChanges()
            .build());
  }
}
