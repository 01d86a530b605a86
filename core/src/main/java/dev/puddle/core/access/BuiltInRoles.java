package dev.puddle.core.access;

import java.util.List;

/**
 * The roles Puddle creates itself, as Apache Polaris does: each realm's {@code service_admin}
 * principal role (held by its root principal), and each warehouse's {@code catalog_admin} catalog
 * role, which holds {@code CATALOG_MANAGE_ACCESS} and {@code CATALOG_MANAGE_CONTENT} on the
 * warehouse and is held by {@code service_admin}. Neither can be deleted. The store creates them
 * (realm bootstrap, warehouse creation).
 */
public final class BuiltInRoles {
  public static final String SERVICE_ADMIN = "service_admin";
  public static final String CATALOG_ADMIN = "catalog_admin";

  /** What a warehouse's catalog_admin holds on its catalog. */
  public static final List<Privilege> CATALOG_ADMIN_PRIVILEGES =
      List.of(Privilege.CATALOG_MANAGE_ACCESS, Privilege.CATALOG_MANAGE_CONTENT);

  private BuiltInRoles() {}
}
