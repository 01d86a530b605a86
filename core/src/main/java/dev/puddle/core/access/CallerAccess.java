package dev.puddle.core.access;

import dev.puddle.core.api.Privilege;
import dev.puddle.core.auth.Caller;
import java.util.List;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * What one caller may do, as current for one request: whether its activated principal roles
 * include {@code service_admin}, whether they reach any catalog role of the request's warehouse,
 * and the privileges those catalog roles hold there. Checked against the metastore on every
 * request ({@link AccessQuery}), so a revoked grant stops working on the next one.
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

  /** Throws 403 unless the caller holds {@code privilege} on {@code target}. */
  public void require(Privilege privilege, Securable target) {
    if (!holds(privilege, target)) {
      throw forbidden(privilege + " on " + target);
    }
  }

  /** Throws 403 unless the caller may see {@code target}. */
  public void requireVisible(Securable target) {
    if (!sees(target)) {
      throw forbidden("a privilege on " + target);
    }
  }

  /** Throws 403 unless the caller holds some catalog role of the warehouse. */
  public void requireCatalogRole() {
    if (!hasCatalogRole) {
      throw forbidden("a catalog role of this warehouse");
    }
  }

  /** Throws 403 unless the caller activates the {@code service_admin} principal role. */
  public void requireServiceAdmin() {
    if (!serviceAdmin) {
      throw forbidden(Privilege.SERVICE_MANAGE_ACCESS.name());
    }
  }

  /** Throws 403 unless the caller is service admin or holds CATALOG_MANAGE_ACCESS here. */
  public void requireManageAccess() {
    if (!serviceAdmin && !holds(Privilege.CATALOG_MANAGE_ACCESS, Securable.catalog())) {
      throw forbidden(Privilege.SERVICE_MANAGE_ACCESS + " or " + Privilege.CATALOG_MANAGE_ACCESS);
    }
  }

  private ForbiddenException forbidden(String needed) {
    return new ForbiddenException(
        "Principal '%s' is not authorized: requires %s", caller.principal(), needed);
  }
}
