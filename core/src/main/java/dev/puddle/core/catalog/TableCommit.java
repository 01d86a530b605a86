package dev.puddle.core.catalog;

import dev.puddle.core.api.RequestScope;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Warehouse;
import java.util.List;
import org.apache.iceberg.RetryableValidationException;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
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
    PuddleTableOperations ops = new PuddleTableOperations(warehouse, table, objects, io, parsed);
    TableMetadata base = ops.current();
    if (base == null) {
      throw new NoSuchTableException("Table does not exist: %s", table);
    }
    validate(request, base);
    return ops.commitLocked(
        current -> {
          if (current != base) {
            // another commit landed since the unlocked check
            try {
              validate(request, current);
            } catch (CommitFailedException e) {
              RequestScope.current().stats().commitConflicted();
              throw e;
            }
          }
          return applied(request, current);
        });
  }

  /**
   * The read of the table's row a commit starts with: without its metadata if this environment
   * parsed the version that is current. The access check may make it ahead, in its own statement.
   */
  public static CatalogObjects.Lookup lookup(
      Warehouse warehouse, TableIdentifier table, VersionCache<TableMetadata> parsed) {
    return PuddleTableOperations.lookup(warehouse, table, parsed);
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

  /** Whether a commit of these requirements creates its table rather than changing one. */
  public static boolean creates(List<UpdateRequirement> requirements) {
    return requirements.stream()
        .anyMatch(UpdateRequirement.AssertTableDoesNotExist.class::isInstance);
  }
}
