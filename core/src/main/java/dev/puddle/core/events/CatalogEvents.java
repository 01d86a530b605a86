package dev.puddle.core.events;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.ChangeEvent;
import dev.puddle.core.metastore.Warehouse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.MetadataUpdateParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.TableIdentifierParser;
import org.apache.iceberg.util.JsonUtil;
import org.apache.iceberg.view.ViewMetadata;

/**
 * The events each kind of change records, their operations shaped as the events proposal's
 * operation objects (identifiers and metadata updates written by iceberg-core's parsers). Puddle
 * adds, on table and view operations, {@code x-puddle-metadata-location} (the new metadata file)
 * and, on tables, {@code x-puddle-snapshot-id} (the current snapshot after the change).
 *
 * <p>An operation's {@code updates} are the metadata updates the change applied. Should they make
 * the operation longer than {@link #MAX_UPDATES_CHARS} (a create of a very wide table), each is cut
 * down to its {@code action} and the operation says {@code "x-puddle-updates-truncated": true}: an
 * event row stays small enough for the Data API, and the metadata file it names has the rest.
 */
public final class CatalogEvents {
  /** The longest {@code updates} array an event carries whole. */
  static final int MAX_UPDATES_CHARS = 32 * 1024;

  private static final JsonFactory JSON = new JsonFactory();

  private CatalogEvents() {}

  /** A table created, or a staged create completed. */
  public static ChangeEvent createTable(
      Warehouse warehouse, TableIdentifier table, TableMetadata metadata, String metadataLocation) {
    return tableEvent(OperationType.CREATE_TABLE, warehouse, table, metadata, metadataLocation);
  }

  /** A table registered from a metadata file, new or over an existing table's metadata. */
  public static ChangeEvent registerTable(
      Warehouse warehouse, TableIdentifier table, TableMetadata metadata, String metadataLocation) {
    return objectEvent(
        OperationType.REGISTER_TABLE,
        warehouse,
        CatalogObjectType.TABLE,
        table,
        metadata.uuid(),
        gen -> {
          writeIdentifier(gen, table);
          gen.writeStringField("table-uuid", metadata.uuid());
          gen.writeStringField("x-puddle-metadata-location", metadataLocation);
          writeSnapshot(gen, metadata);
        });
  }

  /** A commit to a table, alone or in a multi-table transaction. */
  public static ChangeEvent updateTable(
      Warehouse warehouse, TableIdentifier table, TableMetadata metadata, String metadataLocation) {
    return tableEvent(OperationType.UPDATE_TABLE, warehouse, table, metadata, metadataLocation);
  }

  private static ChangeEvent tableEvent(
      OperationType type,
      Warehouse warehouse,
      TableIdentifier table,
      TableMetadata metadata,
      String metadataLocation) {
    return objectEvent(
        type,
        warehouse,
        CatalogObjectType.TABLE,
        table,
        metadata.uuid(),
        gen -> {
          writeIdentifier(gen, table);
          gen.writeStringField("table-uuid", metadata.uuid());
          writeUpdates(gen, metadata.changes());
          gen.writeStringField("x-puddle-metadata-location", metadataLocation);
          writeSnapshot(gen, metadata);
        });
  }

  /** A view created. */
  public static ChangeEvent createView(
      Warehouse warehouse, TableIdentifier view, ViewMetadata metadata, String metadataLocation) {
    return viewEvent(OperationType.CREATE_VIEW, warehouse, view, metadata, metadataLocation);
  }

  /** A view replaced. */
  public static ChangeEvent updateView(
      Warehouse warehouse, TableIdentifier view, ViewMetadata metadata, String metadataLocation) {
    return viewEvent(OperationType.UPDATE_VIEW, warehouse, view, metadata, metadataLocation);
  }

  private static ChangeEvent viewEvent(
      OperationType type,
      Warehouse warehouse,
      TableIdentifier view,
      ViewMetadata metadata,
      String metadataLocation) {
    return objectEvent(
        type,
        warehouse,
        CatalogObjectType.VIEW,
        view,
        metadata.uuid(),
        gen -> {
          writeIdentifier(gen, view);
          gen.writeStringField("view-uuid", metadata.uuid());
          writeUpdates(gen, metadata.changes());
          gen.writeStringField("x-puddle-metadata-location", metadataLocation);
        });
  }

  /** A table or view dropped; {@code purge} only for tables, as the proposal has it. */
  public static ChangeEvent drop(
      Warehouse warehouse, Kind kind, TableIdentifier identifier, String uuid, boolean purge) {
    boolean table = kind == Kind.TABLE;
    return objectEvent(
        table ? OperationType.DROP_TABLE : OperationType.DROP_VIEW,
        warehouse,
        table ? CatalogObjectType.TABLE : CatalogObjectType.VIEW,
        identifier,
        uuid,
        gen -> {
          writeIdentifier(gen, identifier);
          gen.writeStringField(table ? "table-uuid" : "view-uuid", uuid);
          if (table) {
            gen.writeBooleanField("purge", purge);
          }
        });
  }

  /** A table or view renamed; the event names the object by its new name. */
  public static ChangeEvent rename(
      Warehouse warehouse, Kind kind, TableIdentifier from, TableIdentifier to, String uuid) {
    boolean table = kind == Kind.TABLE;
    return objectEvent(
        table ? OperationType.RENAME_TABLE : OperationType.RENAME_VIEW,
        warehouse,
        table ? CatalogObjectType.TABLE : CatalogObjectType.VIEW,
        to,
        uuid,
        gen -> {
          gen.writeFieldName("source");
          TableIdentifierParser.toJson(from, gen);
          gen.writeFieldName("destination");
          TableIdentifierParser.toJson(to, gen);
          gen.writeStringField(table ? "table-uuid" : "view-uuid", uuid);
        });
  }

  public static ChangeEvent createNamespace(
      Warehouse warehouse, Namespace namespace, Map<String, String> properties) {
    return namespaceEvent(
        OperationType.CREATE_NAMESPACE,
        warehouse,
        namespace,
        gen -> {
          if (!properties.isEmpty()) {
            JsonUtil.writeStringMap("properties", new TreeMap<>(properties), gen);
          }
        });
  }

  public static ChangeEvent updateNamespaceProperties(
      Warehouse warehouse,
      Namespace namespace,
      List<String> updated,
      List<String> removed,
      List<String> missing) {
    return namespaceEvent(
        OperationType.UPDATE_NAMESPACE_PROPERTIES,
        warehouse,
        namespace,
        gen -> {
          JsonUtil.writeStringArray("updated", sorted(updated), gen);
          JsonUtil.writeStringArray("removed", sorted(removed), gen);
          if (!missing.isEmpty()) {
            JsonUtil.writeStringArray("missing", sorted(missing), gen);
          }
        });
  }

  public static ChangeEvent dropNamespace(Warehouse warehouse, Namespace namespace) {
    return namespaceEvent(OperationType.DROP_NAMESPACE, warehouse, namespace, gen -> {});
  }

  /**
   * A management change, as a custom operation of type {@code x-puddle-<action>}: of a warehouse's
   * access ({@code warehouse} set), or realm-wide (null: principals and principal roles). {@code
   * fields} name what changed; a secret never is one.
   */
  public static ChangeEvent management(
      String realm, Warehouse warehouse, String action, Map<String, String> fields) {
    String customType = OperationType.PUDDLE_PREFIX + action;
    String json =
        JsonUtil.generate(
            gen -> {
              gen.writeStartObject();
              gen.writeStringField("operation-type", OperationType.CUSTOM.type());
              gen.writeStringField("custom-type", customType);
              for (Map.Entry<String, String> field : new TreeMap<>(fields).entrySet()) {
                gen.writeStringField(field.getKey(), field.getValue());
              }
              gen.writeEndObject();
            },
            false);
    return new ChangeEvent(
        realm,
        warehouse == null ? null : warehouse.id(),
        OperationType.CUSTOM,
        customType,
        null,
        null,
        null,
        null,
        json);
  }

  /**
   * The Iceberg uuid ({@code table-uuid} or {@code view-uuid}) of a table or view's metadata JSON,
   * read up to that field; null if it has none.
   */
  public static String uuidOf(Kind kind, String metadataJson) {
    String field = kind == Kind.TABLE ? "table-uuid" : "view-uuid";
    try (JsonParser parser = JSON.createParser(metadataJson)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        parser.nextToken();
        if (field.equals(name)) {
          return parser.getValueAsString();
        }
        parser.skipChildren();
      }
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes an operation's fields after its {@code operation-type}. */
  @FunctionalInterface
  private interface Fields {
    void write(JsonGenerator gen) throws IOException;
  }

  private static ChangeEvent objectEvent(
      OperationType type,
      Warehouse warehouse,
      CatalogObjectType objectType,
      TableIdentifier identifier,
      String uuid,
      Fields fields) {
    return new ChangeEvent(
        warehouse.realm(),
        warehouse.id(),
        type,
        null,
        objectType,
        identifier.namespace(),
        identifier.name(),
        uuid,
        operation(type, fields));
  }

  private static ChangeEvent namespaceEvent(
      OperationType type, Warehouse warehouse, Namespace namespace, Fields fields) {
    return new ChangeEvent(
        warehouse.realm(),
        warehouse.id(),
        type,
        null,
        CatalogObjectType.NAMESPACE,
        namespace,
        null,
        null,
        operation(
            type,
            gen -> {
              JsonUtil.writeStringArray("namespace", List.of(namespace.levels()), gen);
              fields.write(gen);
            }));
  }

  private static String operation(OperationType type, Fields fields) {
    return JsonUtil.generate(
        gen -> {
          gen.writeStartObject();
          gen.writeStringField("operation-type", type.type());
          fields.write(gen);
          gen.writeEndObject();
        },
        false);
  }

  private static void writeIdentifier(JsonGenerator gen, TableIdentifier identifier)
      throws IOException {
    gen.writeFieldName("identifier");
    TableIdentifierParser.toJson(identifier, gen);
  }

  private static void writeSnapshot(JsonGenerator gen, TableMetadata metadata) throws IOException {
    Snapshot current = metadata.currentSnapshot();
    if (current != null) {
      gen.writeNumberField("x-puddle-snapshot-id", current.snapshotId());
    }
  }

  private static void writeUpdates(JsonGenerator gen, List<MetadataUpdate> updates)
      throws IOException {
    String whole =
        JsonUtil.generate(
            array -> {
              array.writeStartArray();
              for (MetadataUpdate update : updates) {
                MetadataUpdateParser.toJson(update, array);
              }
              array.writeEndArray();
            },
            false);
    gen.writeFieldName("updates");
    if (whole.length() <= MAX_UPDATES_CHARS) {
      gen.writeRawValue(whole);
      return;
    }
    gen.writeStartArray();
    for (MetadataUpdate update : updates) {
      gen.writeStartObject();
      gen.writeStringField("action", action(update));
      gen.writeEndObject();
    }
    gen.writeEndArray();
    gen.writeBooleanField("x-puddle-updates-truncated", true);
  }

  /** An update's {@code action}, as iceberg-core's parser names it. */
  private static String action(MetadataUpdate update) {
    return JsonUtil.parse(MetadataUpdateParser.toJson(update), node -> node.get("action").asText());
  }

  private static List<String> sorted(Collection<String> values) {
    return values.stream().sorted().toList();
  }
}
