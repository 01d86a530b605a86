package dev.puddle.core.catalog;

import dev.puddle.core.api.RequestScope;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Warehouse;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.iceberg.RetryableValidationException;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * Commits changes to an existing table ({@code updateTable}): its requirements are checked and its
 * updates applied with iceberg-core, as {@code CatalogHandlers} does, against the table's row
 * locked in the commit's own database transaction.
 *
 * <p>{@code CatalogHandlers} checks against an unlocked read and retries a lost compare-and-swap
 * after 100 ms; under contention every writer but one has then written a metadata file for nothing
 * and waits before it learns of its conflict. Here commits to one table queue on its row: a request
 * whose requirements no longer hold fails with 409 before writing anything, one whose requirements
 * still hold (a concurrent change elsewhere in the table) lands without a retry. The requirements
 * are checked first against the current version without a lock, so a request stale from the start
 * fails at once.
 */
public final class TableCommit {
  private final PuddleCatalog catalog;

  /** Commits to tables of {@code catalog}, the request's. */
  public TableCommit(PuddleCatalog catalog) {
    this.catalog = catalog;
  }

  /**
   * The table's metadata once the request's changes are committed (its current metadata if they
   * change nothing), with its JSON.
   *
   * @param row the table's row as the request read it with the caller's access ({@link #lookup})
   * @throws CommitFailedException (409) if a requirement does not hold
   */
  public Committed commit(
      TableIdentifier table, UpdateTableRequest request, Optional<CatalogObject> row) {
    RequestScope.current().stats().commitAttempted();
    PuddleTableOperations ops = catalog.newTableOps(table);
    ops.startFrom(
        row.filter(o -> o.kind() == Kind.TABLE)
            .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", table)));
    TableMetadata base = ops.current();
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
   * Commits the metadata {@code change} computes from the table's current metadata, as the catalog
   * computes it: under the table's row lock, so {@code change} sees the version every other writer
   * queues behind, and a commit that landed before is never lost. For changes the catalog makes on
   * its own, such as snapshot expiry, which re-plan on whatever version is current rather than
   * failing on it. Returns the current metadata unchanged if {@code change} changes nothing.
   */
  public Committed commit(TableIdentifier table, UnaryOperator<TableMetadata> change) {
    RequestScope.current().stats().commitAttempted();
    return catalog.newTableOps(table).commitLocked(change);
  }

  /**
   * The read of the table's row a commit starts with: without its metadata if this environment
   * parsed the version that is current. The access check may make it, in its own statement.
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
