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
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileIO;

/**
 * A table's metadata in the metastore. Refreshes read the current metadata JSON stored beside the
 * pointer, never object storage, and only when this execution environment has not parsed that
 * version already (the {@link VersionCache}). A commit locks the table's row, and only if it still
 * holds the version the commit is based on writes the new metadata file (uploaded while the
 * pointer's statements run) and swaps the pointer; else it fails without writing anything.
 */
final class PuddleTableOperations extends BaseMetastoreTableOperations {
  /**
   * Parsed metadata weighs several times its JSON; an estimate is enough to bound the cache.
   */
  private static final int PARSED_WEIGHT_PER_CHAR = 4;

  private final Warehouse warehouse;
  private final TableIdentifier identifier;
  private final CatalogObjects objects;
  private final ObjectCommitter committer;
  private final FileIO io;
  private final VersionCache<TableMetadata> parsed;

  /** The row the current metadata came from. */
  private CatalogObject row;

  /** A row already read, e.g. just committed: the next refresh needs no query. */
  private CatalogObject known;

  /** The metadata of {@link #known}'s version when its row was read without it. */
  private TableMetadata knownMetadata;

  /** Where a new metadata file is written while it is being staged: memory. */
  private StagingFileIO staging;

  /** The swap being committed: its new row, metadata and the upload of its file. */
  private record Staged(CatalogObject row, TableMetadata metadata, MetadataUpload upload) {}

  private Staged staged;

  PuddleTableOperations(
      Warehouse warehouse,
      TableIdentifier identifier,
      CatalogObjects objects,
      FileIO io,
      VersionCache<TableMetadata> parsed) {
    this.warehouse = warehouse;
    this.identifier = identifier;
    this.objects = objects;
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

  /**
   * Operations at a row locked without its metadata JSON, because it is at the version of {@code
   * metadata}, which the caller holds.
   */
  static PuddleTableOperations of(
      Warehouse warehouse,
      CatalogObject row,
      TableMetadata metadata,
      CatalogObjects objects,
      FileIO io,
      VersionCache<TableMetadata> parsed) {
    PuddleTableOperations ops = of(warehouse, row, objects, io, parsed);
    ops.knownMetadata = metadata;
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

  /**
   * The swap of this table's pointer, from the current row to {@code metadata}: the new metadata
   * file, named and written by iceberg-core into memory, starts uploading in background. The
   * swap's transaction must wait for it ({@link #awaitUpload}) before it commits, and then report
   * the outcome ({@link #committed} or {@link #discardUpload}).
   */
  CatalogObjects.Swap stageSwap(TableMetadata metadata) {
    committer.checkLocation(row, false, metadata.location());
    staging = new StagingFileIO();
    String location;
    byte[] bytes;
    try {
      location = writeNewMetadataIfRequired(false, metadata);
      bytes = staging.written(location);
    } finally {
      staging = null;
    }
    MetadataUpload upload = MetadataUpload.start(io, location, bytes);
    String json = MetadataJson.remember(location, TableMetadataParser.toJson(metadata));
    CatalogObject next =
        new CatalogObject(
            row.id(), identifier, Kind.TABLE, metadata.location(), row.ownsLocation(), location,
            json);
    staged = new Staged(next, metadata, upload);
    return new CatalogObjects.Swap(row, metadata.location(), location, json);
  }

  /** Waits until the staged metadata file is written; throws, and nothing commits, if it fails. */
  void awaitUpload() {
    if (staged != null) {
      staged.upload().await();
    }
  }

  /**
   * Deletes the staged metadata file of a swap that certainly did not commit, once its upload
   * ended (a delete must not overtake the write).
   */
  void discardUpload() {
    if (staged != null) {
      staged.upload().awaitQuietly();
      committer.deleteQuietly(staged.row().metadataLocation());
      staged = null;
    }
  }

  /**
   * The metadata the staged swap committed, kept as the table's current version: the next refresh
   * neither reads nor parses what was just written.
   */
  TableMetadata committed() {
    known = staged.row();
    TableMetadata metadata =
        TableMetadata.buildFrom(staged.metadata())
            .withMetadataLocation(known.metadataLocation())
            .discardChanges()
            .build();
    keep(known, metadata);
    staged = null;
    return metadata;
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
    TableMetadata held = knownMetadata;
    knownMetadata = null;
    row = current;
    refreshFromMetadataLocation(
        current.metadataLocation(),
        null,
        0,
        location ->
            kept.filter(entry -> entry.standsFor(current))
                .map(VersionCache.Entry::value)
                .or(
                    () ->
                        Optional.ofNullable(held)
                            .filter(m -> location.equals(m.metadataFileLocation())))
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
    if (base == null) {
      create(metadata);
      return;
    }
    String based = row.metadataLocation();
    try {
      objects.swapLocked(
          warehouse,
          identifier,
          based,
          locked -> {
            if (!locked.metadataLocation().equals(based)) {
              RequestScope.current().stats().commitConflicted();
              throw new CommitFailedException(
                  "Cannot commit %s: metadata location %s has changed", identifier, based);
            }
            return stageSwap(metadata);
          },
          this::awaitUpload);
    } catch (CommitStateUnknownException e) {
      throw e; // the pointer may have moved to the new file: keep it
    } catch (RuntimeException e) {
      discardUpload();
      throw e;
    }
    committed();
  }

  private void create(TableMetadata metadata) {
    // a registered table's metadata file already exists and was placed by someone else
    boolean registering = metadata.metadataFileLocation() != null;
    committer.checkLocation(null, registering, metadata.location());
    String metadataLocation = writeNewMetadataIfRequired(true, metadata);
    String json = MetadataJson.remember(metadataLocation, TableMetadataParser.toJson(metadata));
    known = committer.commit(null, registering, metadata.location(), metadataLocation, json);
    // the committed metadata is the next refresh's: no need to parse what was just written
    keep(
        known,
        TableMetadata.buildFrom(metadata)
            .withMetadataLocation(known.metadataLocation())
            .discardChanges()
            .build());
  }
}
