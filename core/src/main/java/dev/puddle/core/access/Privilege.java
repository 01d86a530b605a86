package dev.puddle.core.access;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Privileges, named and related as Apache Polaris names and relates them. A catalog role holds
 * privileges on securables (the catalog, a namespace, a table or a view); a privilege held on the
 * catalog or a namespace applies to everything below it, and some privileges imply others (see
 * {@link #isGrantedBy}): {@code TABLE_WRITE_DATA} implies {@code TABLE_READ_DATA}, which implies
 * {@code TABLE_READ_PROPERTIES} and {@code TABLE_LIST}; {@code CATALOG_MANAGE_CONTENT} implies
 * every privilege on namespaces, tables and views.
 */
public enum Privilege {
  /** Manage principals, principal roles and warehouses of the realm: the service_admin role. */
  SERVICE_MANAGE_ACCESS(Level.SERVICE),
  CATALOG_MANAGE_ACCESS(Level.CATALOG),
  CATALOG_MANAGE_CONTENT(Level.CATALOG),
  CATALOG_MANAGE_METADATA(Level.CATALOG),
  CATALOG_READ_PROPERTIES(Level.CATALOG),
  NAMESPACE_LIST(Level.NAMESPACE),
  NAMESPACE_CREATE(Level.NAMESPACE),
  NAMESPACE_READ_PROPERTIES(Level.NAMESPACE),
  NAMESPACE_WRITE_PROPERTIES(Level.NAMESPACE),
  NAMESPACE_DROP(Level.NAMESPACE),
  NAMESPACE_FULL_METADATA(Level.NAMESPACE),
  TABLE_LIST(Level.TABLE),
  TABLE_CREATE(Level.TABLE),
  TABLE_READ_PROPERTIES(Level.TABLE),
  TABLE_WRITE_PROPERTIES(Level.TABLE),
  TABLE_DROP(Level.TABLE),
  TABLE_READ_DATA(Level.TABLE),
  TABLE_WRITE_DATA(Level.TABLE),
  TABLE_FULL_METADATA(Level.TABLE),
  VIEW_LIST(Level.VIEW),
  VIEW_CREATE(Level.VIEW),
  VIEW_READ_PROPERTIES(Level.VIEW),
  VIEW_WRITE_PROPERTIES(Level.VIEW),
  VIEW_DROP(Level.VIEW),
  VIEW_FULL_METADATA(Level.VIEW);

  /** Where a privilege can be granted. */
  public enum Level {
    /** To principal roles, realm-wide; not grantable through the grants API. */
    SERVICE,
    /** On the catalog (warehouse) only. */
    CATALOG,
    /** On the catalog or a namespace. */
    NAMESPACE,
    /** On the catalog, a namespace or a table. */
    TABLE,
    /** On the catalog, a namespace or a view. */
    VIEW
  }

  private final Level level;

  Privilege(Level level) {
    this.level = level;
  }

  public Level level() {
    return level;
  }

  /**
   * Whether holding {@code held} grants this privilege: it is this privilege, or one Polaris lets
   * subsume it (its {@code PolarisAuthorizerImpl} super-privileges).
   */
  public boolean isGrantedBy(Privilege held) {
    return held == this || Implications.SUPER.getOrDefault(this, Set.of()).contains(held);
  }

  private static final class Implications {
    private static final Map<Privilege, Set<Privilege>> SUPER = new EnumMap<>(Privilege.class);

    static {
      Set<Privilege> manage = EnumSet.of(CATALOG_MANAGE_CONTENT, CATALOG_MANAGE_METADATA);
      put(NAMESPACE_CREATE, manage, NAMESPACE_FULL_METADATA);
      put(NAMESPACE_DROP, manage, NAMESPACE_FULL_METADATA);
      put(
          NAMESPACE_LIST,
          manage,
          NAMESPACE_CREATE,
          NAMESPACE_FULL_METADATA,
          NAMESPACE_READ_PROPERTIES,
          NAMESPACE_WRITE_PROPERTIES);
      put(NAMESPACE_READ_PROPERTIES, manage, NAMESPACE_FULL_METADATA, NAMESPACE_WRITE_PROPERTIES);
      put(NAMESPACE_WRITE_PROPERTIES, manage, NAMESPACE_FULL_METADATA);
      put(NAMESPACE_FULL_METADATA, manage);

      put(TABLE_CREATE, manage, TABLE_FULL_METADATA);
      put(TABLE_DROP, manage, TABLE_FULL_METADATA);
      put(
          TABLE_LIST,
          manage,
          TABLE_CREATE,
          TABLE_FULL_METADATA,
          TABLE_READ_DATA,
          TABLE_READ_PROPERTIES,
          TABLE_WRITE_DATA,
          TABLE_WRITE_PROPERTIES);
      put(
          TABLE_READ_PROPERTIES,
          manage,
          TABLE_FULL_METADATA,
          TABLE_READ_DATA,
          TABLE_WRITE_DATA,
          TABLE_WRITE_PROPERTIES);
      put(TABLE_WRITE_PROPERTIES, manage, TABLE_FULL_METADATA, TABLE_WRITE_DATA);
      // data privileges: CATALOG_MANAGE_METADATA does not reach the data
      put(TABLE_READ_DATA, EnumSet.of(CATALOG_MANAGE_CONTENT), TABLE_WRITE_DATA);
      put(TABLE_WRITE_DATA, EnumSet.of(CATALOG_MANAGE_CONTENT));
      put(TABLE_FULL_METADATA, manage);

      put(VIEW_CREATE, manage, VIEW_FULL_METADATA);
      put(VIEW_DROP, manage, VIEW_FULL_METADATA);
      put(
          VIEW_LIST,
          manage,
          VIEW_CREATE,
          VIEW_FULL_METADATA,
          VIEW_READ_PROPERTIES,
          VIEW_WRITE_PROPERTIES);
      put(VIEW_READ_PROPERTIES, manage, VIEW_FULL_METADATA, VIEW_WRITE_PROPERTIES);
      put(VIEW_WRITE_PROPERTIES, manage, VIEW_FULL_METADATA);
      put(VIEW_FULL_METADATA, manage);

      put(CATALOG_MANAGE_METADATA, EnumSet.of(CATALOG_MANAGE_CONTENT));
      put(CATALOG_READ_PROPERTIES, manage);
    }

    private static void put(Privilege privilege, Set<Privilege> supers, Privilege... more) {
      Set<Privilege> all = EnumSet.copyOf(supers);
      all.addAll(Set.of(more));
      SUPER.put(privilege, all);
    }
  }
}
