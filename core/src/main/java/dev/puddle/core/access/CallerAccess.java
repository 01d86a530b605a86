package dev.puddle.core.access;

import dev.puddle.core.auth.Caller;
import java.util.List;

/**
 * What one caller may do, as current for one request: whether its activated principal roles include
 * {@code service_admin}, whether they reach any catalog role of the request's warehouse, and the
 * privileges those catalog roles hold there. Read from the metastore for every request ({@link
 * AccessQuery}), so a revoked grant stops working on the next one; {@link AccessPolicy} decides
 * what it allows.
 */
public record CallerAccess(
    Caller caller, boolean serviceAdmin, boolean hasCatalogRole, List<Grant> grants) {
  public CallerAccess {
    grants = List.copyOf(grants);
  }

  /** Whether the caller holds {@code privilege} on {@code target} or on a securable above it. */
  public boolean holds(Privilege privilege, Securable target) {
    return grants.stream()
        .anyMatch(g -> privilege.isGrantedBy(g.privilege()) && g.securable().reaches(target));
  }

  /**
   * Whether the caller may know that {@code target} exists: it holds some privilege on it, above
   * it, or on something inside it.
   */
  public boolean sees(Securable target) {
    return grants.stream().anyMatch(g -> g.securable().onPathOf(target));
  }
}
