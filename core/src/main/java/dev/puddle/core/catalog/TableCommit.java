package dev.puddle.core.catalog;

import dev.puddle.core.api.RequestScope;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Warehouse;
import org.apache.iceberg.RetryableValidationException;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * Commits changes to an existing table ({@code updateTable}): its requirements are checked and its
 * updates applied with iceberg-core, as {@code CatalogHandlers} does, against the table's row
 * locked in the commit's own database transaction.
 *
 * <p>{@code CatalogHandlers} checks against an unlocked read and retries a lost compare-and-swap
 * after 100 ms; under contention every writer but one has then written a metadata file for
 * nothing and waits before it learns of its conflict. Here commits to one table queue on its row:
 * a request whose requirements no longer hold fails with 409 before writing anything, one whose
 * requirements still hold (a concurrent change elsewhere in the table) lands without a retry. The
 * requirements are checked first against the current version without a lock, so a request stale
 * from the start fails at once.
 */
public final class TableCommit {
  private final Warehouse warehouse;
  private final CatalogObjects objects;
  private final FileIO io;
  private final VersionCache<TableMetadata> parsed;

  public TableCommit(
      Warehouse warehouse,
      CatalogObjects objects,
      FileIO io,
      VersionCache<TableMetadata> parsed) {
    this.warehouse = warehouse;
    this.objects = objects;
    this.io = io;
    this.parsed = parsed;
  }

  /**
   * The table's metadata once the request's changes are committed (its current metadata if they
   * change nothing).
   *
   * @throws CommitFailedException (409) if a requirement does not hold
   */
  public TableMetadata commit(TableIdentifier table, UpdateTableRequest request) {
    RequestScope.current().stats().commitAttempted();
    TableMetadata base =
        new PuddleTableOperations(warehouse, table, objects, io, parsed).current();
    if (base == null) {
      throw new NoSuchTableException("Table does not exist: %s", table);
    }
    validate(request, base);

    Attempt attempt = new Attempt(request, base);
    try {
      objects.swapLocked(
          warehouse, table, base.metadataFileLocation(), attempt::apply, attempt::awaitUpload);
    } catch (CommitStateUnknownException e) {
      throw e; // the pointer may have moved to the new file: keep it
    } catch (RuntimeException e) {
      attempt.discard();
      throw e;
    }
    return attempt.result();
  }

  /** The commit, from the row locked to the new metadata. */
  private final class Attempt {
    private final UpdateTableRequest request;
    private final TableMetadata base;
    private PuddleTableOperations ops;
    private TableMetadata unchanged;

    Attempt(UpdateTableRequest request, TableMetadata base) {
      this.request = request;
      this.base = base;
    }

    /** The swap to make from the locked row, or null if the updates change nothing. */
    CatalogObjects.Swap apply(CatalogObject locked) {
      ops = PuddleTableOperations.of(warehouse, locked, base, objects, io, parsed);
      TableMetadata current = ops.current();
      if (current != base) {
        // another commit landed since the unlocked check
        try {
          validate(request, current);
        } catch (CommitFailedException e) {
          RequestScope.current().stats().commitConflicted();
          throw e;
        }
      }
      TableMetadata updated = applied(request, current);
      if (updated.changes().isEmpty()) {
        unchanged = current;
        return null;
      }
      return ops.stageSwap(updated);
    }

    void awaitUpload() {
      ops.awaitUpload();
    }

    void discard() {
      if (ops != null) {
        ops.discardUpload();
      }
    }

    TableMetadata result() {
      return unchanged != null ? unchanged : ops.committed();
    }
  }

  /** Throws 409 unless every requirement of the request holds for {@code metadata}. */
  static void validate(UpdateTableRequest request, TableMetadata metadata) {
    request.requirements().forEach(requirement -> requirement.validate(metadata));
  }

  /** {@code base} with the request's updates applied, as iceberg-core applies them. */
  static TableMetadata applied(UpdateTableRequest request, TableMetadata base) {
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    try {
      request.updates().forEach(update -> update.applyTo(builder));
    } catch (RetryableValidationException e) {
      throw new CommitFailedException(e, "Validation failed, please retry: %s", e.getMessage());
    }
    return builder.build();
  }

  /** Whether the request creates the table rather than changing an existing one. */
  public static boolean creates(UpdateTableRequest request) {
    return request.requirements().stream()
        .anyMatch(UpdateRequirement.AssertTableDoesNotExist.class::isInstance);
  }
}
