package dev.puddle.core.api;

/**
 * Privileges a route requires, named as Apache Polaris names them. A grant of a privilege on a
 * catalog or namespace applies to everything below it.
 */
public enum Privilege {
  /** No privilege: probes and the token endpoint. */
  NONE,
  CATALOG_READ_PROPERTIES,
  NAMESPACE_LIST,
  NAMESPACE_CREATE,
  NAMESPACE_READ_PROPERTIES,
  NAMESPACE_WRITE_PROPERTIES,
  NAMESPACE_DROP,
  TABLE_LIST,
  TABLE_CREATE,
  TABLE_READ_PROPERTIES,
  TABLE_WRITE_PROPERTIES,
  TABLE_DROP,
  TABLE_READ_DATA,
  TABLE_WRITE_DATA,
  VIEW_LIST,
  VIEW_CREATE,
  VIEW_READ_PROPERTIES,
  VIEW_WRITE_PROPERTIES,
  VIEW_DROP,
  CATALOG_MANAGE_CONTENT
}
