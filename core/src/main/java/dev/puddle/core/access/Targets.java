package dev.puddle.core.access;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What a request addresses, for the rules of {@link Operation} to take their securables from: a
 * namespace (the catalog when empty), a table or view, and where a rename moves it.
 */
public record Targets(Namespace namespace, TableIdentifier object, TableIdentifier destination) {
  private static final Targets CATALOG = new Targets(Namespace.empty(), null, null);

  public static Targets catalog() {
    return CATALOG;
  }

  public static Targets namespace(Namespace namespace) {
    return new Targets(namespace, null, null);
  }

  /** A table or view, in its namespace. */
  public static Targets object(TableIdentifier object) {
    return new Targets(object.namespace(), object, null);
  }

  public static Targets rename(TableIdentifier source, TableIdentifier destination) {
    return new Targets(source.namespace(), source, destination);
  }
}
