package dev.puddle.core.metastore;

import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A table or view row: its identity, where its files live, and its current metadata (pointer and
 * JSON). The JSON is null only in a row read with {@link CatalogObjects#find(Warehouse,
 * org.apache.iceberg.catalog.TableIdentifier, String)} at the metadata location its caller knew.
 */
public record CatalogObject(
    UUID id,
    TableIdentifier identifier,
    Kind kind,
    String location,
    boolean ownsLocation,
    String metadataLocation,
    String metadataJson) {

  /** Tables and views share one identifier space per namespace. */
  public enum Kind {
    TABLE("table", "Table"),
    VIEW("view", "View");

    private final String sql;
    private final String display;

    Kind(String sql, String display) {
      this.sql = sql;
      this.display = display;
    }

    public String sql() {
      return sql;
    }

    /** "Table" or "View", as Iceberg's messages name them. */
    public String display() {
      return display;
    }

    static Kind fromSql(String value) {
      return "view".equals(value) ? VIEW : TABLE;
    }
  }
}
