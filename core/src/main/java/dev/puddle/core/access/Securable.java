package dev.puddle.core.access;

import java.util.Arrays;
import java.util.Locale;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What a privilege is held on: a warehouse's catalog, a namespace, a table or a view, by its path
 * in the warehouse. A privilege on the catalog or a namespace reaches everything below it.
 */
public record Securable(Kind kind, Namespace namespace, String name) {
  /** The kinds of securables, by their names in the management API. */
  public enum Kind {
    CATALOG,
    NAMESPACE,
    TABLE,
    VIEW;

    public String sql() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private static final Securable CATALOG = new Securable(Kind.CATALOG, Namespace.empty(), null);

  public static Securable catalog() {
    return CATALOG;
  }

  public static Securable namespace(Namespace namespace) {
    return namespace.isEmpty() ? CATALOG : new Securable(Kind.NAMESPACE, namespace, null);
  }

  public static Securable table(TableIdentifier table) {
    return new Securable(Kind.TABLE, table.namespace(), table.name());
  }

  public static Securable view(TableIdentifier view) {
    return new Securable(Kind.VIEW, view.namespace(), view.name());
  }

  /**
   * Whether a privilege held on this securable applies to {@code target}: it is the same securable,
   * or this is the catalog or a namespace that contains it.
   */
  public boolean reaches(Securable target) {
    return switch (kind) {
      case CATALOG -> true;
      case NAMESPACE -> isPrefix(namespace, target.namespace);
      case TABLE, VIEW -> equals(target);
    };
  }

  /**
   * Whether this securable and {@code other} lie on one path: one of them reaches the other. A
   * caller that holds anything on a securable may see the namespaces that lead to it.
   */
  public boolean onPathOf(Securable other) {
    return reaches(other) || other.reaches(this);
  }

  private static boolean isPrefix(Namespace prefix, Namespace namespace) {
    String[] outer = prefix.levels();
    String[] inner = namespace.levels();
    return outer.length <= inner.length
        && Arrays.equals(outer, 0, outer.length, inner, 0, outer.length);
  }

  @Override
  public String toString() {
    return switch (kind) {
      case CATALOG -> "catalog";
      case NAMESPACE -> "namespace " + namespace;
      case TABLE, VIEW -> kind.sql() + " " + TableIdentifier.of(namespace, name);
    };
  }
}
