package dev.puddle.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code puddle tables}: list, show, schema, snapshots, properties; through the Iceberg REST API.
 */
@Command(
    name = "tables",
    description = "The warehouse's tables, read through the Iceberg REST API.",
    subcommands = {
      Tables.ListTables.class,
      Tables.Show.class,
      Tables.Schema.class,
      Tables.Snapshots.class,
      Tables.Properties.class
    })
final class Tables {
  private Tables() {}

  @Command(name = "list", description = "Lists the tables of a namespace.")
  static final class ListTables extends CatalogCommand {
    @Parameters(paramLabel = "NAMESPACE", description = "Levels separated by dots: sales.eu.")
    String namespace;

    @Override
    void run() {
      List<TableIdentifier> tables =
          new IcebergCatalog(client()).tables(Arguments.namespace(spec, namespace));
      if (printer().json()) {
        printer()
            .json(
                CatalogClient.JSON.valueToTree(
                    ListTablesResponse.builder().addAll(tables).build()));
        return;
      }
      printer()
          .table(
              List.of("TABLE"),
              tables.stream().map(t -> List.of(Printer.text(t.toString()))).toList());
    }
  }

  /** A command on one table's current metadata. */
  abstract static class TableCommand extends CatalogCommand {
    @Parameters(paramLabel = "TABLE", description = "NAMESPACE.TABLE, e.g. sales.orders.")
    String table;

    @Override
    final void run() {
      show(new IcebergCatalog(client()).table(Arguments.table(spec, table)));
    }

    abstract void show(TableMetadata metadata);
  }

  @Command(name = "show", description = "Shows a table: location, format, current snapshot.")
  static final class Show extends TableCommand {
    @Override
    void show(TableMetadata metadata) {
      Map<String, String> fields = new LinkedHashMap<>();
      fields.put("table", table);
      fields.put("uuid", metadata.uuid());
      fields.put("format version", String.valueOf(metadata.formatVersion()));
      fields.put("location", metadata.location());
      fields.put("metadata location", metadata.metadataFileLocation());
      fields.put("current schema", String.valueOf(metadata.currentSchemaId()));
      fields.put("partition spec", metadata.spec().toString().replaceAll("\\s+", " "));
      fields.put("sort order", metadata.sortOrder().toString().replaceAll("\\s+", " "));
      Snapshot current = metadata.currentSnapshot();
      fields.put("current snapshot", current == null ? "" : String.valueOf(current.snapshotId()));
      fields.put("snapshots", String.valueOf(metadata.snapshots().size()));
      fields.put("last updated", Instant.ofEpochMilli(metadata.lastUpdatedMillis()).toString());
      if (printer().json()) {
        printer().json(CatalogClient.JSON.valueToTree(fields));
        return;
      }
      printer().fields(fields);
    }
  }

  @Command(name = "schema", description = "Shows a table's current schema: field ids and types.")
  static final class Schema extends TableCommand {
    @Override
    void show(TableMetadata metadata) {
      org.apache.iceberg.Schema schema = metadata.schema();
      if (printer().json()) {
        printer().json(tree(SchemaParser.toJson(schema)));
        return;
      }
      Map<Integer, Types.NestedField> fields = new TreeMap<>(TypeUtil.indexById(schema.asStruct()));
      List<List<String>> rows = new ArrayList<>();
      fields.forEach(
          (id, field) ->
              rows.add(
                  List.of(
                      String.valueOf(id),
                      Printer.text(schema.findColumnName(id)),
                      typeName(field.type()),
                      field.isRequired() ? "required" : "optional",
                      Printer.text(field.doc()))));
      printer().table(List.of("ID", "NAME", "TYPE", "NULLABILITY", "DOC"), rows);
    }

    /** A primitive's name; a nested type's kind, since its fields have rows of their own. */
    private static String typeName(Type type) {
      return type.isPrimitiveType()
          ? type.toString()
          : type.typeId().name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  @Command(name = "snapshots", description = "Lists a table's snapshots, oldest first.")
  static final class Snapshots extends TableCommand {
    @Override
    void show(TableMetadata metadata) {
      if (printer().json()) {
        ArrayNode snapshots = CatalogClient.JSON.createArrayNode();
        metadata.snapshots().forEach(s -> snapshots.add(tree(SnapshotParser.toJson(s))));
        ObjectNode answer = CatalogClient.JSON.createObjectNode();
        answer.set("snapshots", snapshots);
        printer().json(answer);
        return;
      }
      Map<Long, List<String>> refs = new TreeMap<>();
      metadata
          .refs()
          .forEach(
              (name, ref) ->
                  refs.computeIfAbsent(ref.snapshotId(), id -> new ArrayList<>())
                      .add(refName(name, ref)));
      printer()
          .table(
              List.of("SNAPSHOT_ID", "PARENT_ID", "TIMESTAMP", "OPERATION", "REFS", "SUMMARY"),
              metadata.snapshots().stream()
                  .map(
                      s ->
                          List.of(
                              String.valueOf(s.snapshotId()),
                              s.parentId() == null ? "" : String.valueOf(s.parentId()),
                              Instant.ofEpochMilli(s.timestampMillis()).toString(),
                              s.operation() == null ? "" : s.operation(),
                              String.join(",", refs.getOrDefault(s.snapshotId(), List.of())),
                              summary(s.summary())))
                  .toList());
    }

    private static String refName(String name, SnapshotRef ref) {
      return ref.isBranch() ? name : "tag:" + name;
    }

    /** The summary's counts people look at first. */
    private static String summary(Map<String, String> summary) {
      return List.of(
              "added-records",
              "deleted-records",
              "total-records",
              "added-data-files",
              "total-data-files")
          .stream()
          .filter(summary::containsKey)
          .map(key -> key + "=" + summary.get(key))
          .collect(Collectors.joining(", "));
    }
  }

  @Command(name = "properties", description = "Lists a table's properties.")
  static final class Properties extends TableCommand {
    @Override
    void show(TableMetadata metadata) {
      Map<String, String> properties = new TreeMap<>(metadata.properties());
      if (printer().json()) {
        printer().json(CatalogClient.JSON.valueToTree(properties));
        return;
      }
      printer()
          .table(
              List.of("KEY", "VALUE"),
              properties.entrySet().stream()
                  .map(e -> List.of(Printer.text(e.getKey()), Printer.text(e.getValue())))
                  .toList());
    }
  }

  private static JsonNode tree(String json) {
    try {
      return CatalogClient.JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
