import { call, namespacePath, segment } from "./api";
import { prefixOf } from "./catalog";
import { type Child, h, link, section, table } from "./dom";
import { dotted, time, typeName } from "./format";
import type {
  Field,
  LongId,
  LoadTableResult,
  LoadViewResult,
  Schema,
  Snapshot,
  TableMetadata,
  Type,
} from "./iceberg";
import { href } from "./routes";

/** One table: schema, partitioning, sort order, properties, snapshots, refs, metadata log. */
export async function tablePage(
  warehouse: string,
  namespace: string[],
  name: string,
): Promise<HTMLElement> {
  const prefix = await prefixOf(warehouse);
  const loaded = await call<LoadTableResult>(
    "GET",
    `/v1/${segment(prefix)}/namespaces/${namespacePath(namespace)}/tables/${segment(name)}`,
  );
  const metadata = loaded.metadata;
  const schema =
    metadata.schemas.find((s) => s["schema-id"] === metadata["current-schema-id"]) ??
    metadata.schemas[metadata.schemas.length - 1];
  const columns = new Map<number, string>();
  if (schema) {
    collectNames(schema.fields, "", columns);
  }
  return h(
    "article",
    { "data-testid": "table-page" },
    h(
      "p",
      { class: "crumbs" },
      link(href({ page: "namespaces", warehouse }), warehouse),
      ` / ${dotted(namespace)} /`,
    ),
    h("h1", { "data-testid": "table-name" }, name),
    overview([
      ["metadata location", loaded["metadata-location"] ?? ""],
      ["location", metadata.location],
      ["table uuid", metadata["table-uuid"]],
      ["format version", metadata["format-version"]],
      ["last updated", time(metadata["last-updated-ms"])],
      ["current snapshot", metadata["current-snapshot-id"] ?? "none"],
    ]),
    section(
      `Schema ${schema ? schema["schema-id"] : ""}`,
      schema ? schemaTable(schema) : h("p", {}, "No schema"),
    ),
    partitionSpec(metadata, columns),
    sortOrder(metadata, columns),
    section("Properties", properties(metadata.properties ?? {})),
    section("Snapshots", timeline(metadata)),
    section(
      "Refs",
      table(
        ["name", "type", "snapshot", "retention"],
        Object.entries(metadata.refs ?? {}).map(([refName, ref]) => [
          refName,
          ref.type,
          ref["snapshot-id"],
          [
            ref["max-ref-age-ms"] !== undefined ? `max ref age ${ref["max-ref-age-ms"]} ms` : "",
            ref["max-snapshot-age-ms"] !== undefined
              ? `max snapshot age ${ref["max-snapshot-age-ms"]} ms`
              : "",
            ref["min-snapshots-to-keep"] !== undefined
              ? `keep ${ref["min-snapshots-to-keep"]} snapshots`
              : "",
          ]
            .filter((part) => part.length > 0)
            .join(", "),
        ]),
        "refs",
      ),
    ),
    section(
      "Metadata log",
      table(
        ["time", "metadata file"],
        [...(metadata["metadata-log"] ?? [])]
          .reverse()
          .map((entry) => [time(entry["timestamp-ms"]), entry["metadata-file"]]),
        "metadata-log",
      ),
    ),
  );
}

/** One view: its versions, newest first, each with its SQL per dialect. */
export async function viewPage(
  warehouse: string,
  namespace: string[],
  name: string,
): Promise<HTMLElement> {
  const prefix = await prefixOf(warehouse);
  const loaded = await call<LoadViewResult>(
    "GET",
    `/v1/${segment(prefix)}/namespaces/${namespacePath(namespace)}/views/${segment(name)}`,
  );
  const metadata = loaded.metadata;
  const current = metadata.versions.find(
    (version) => version["version-id"] === metadata["current-version-id"],
  );
  const schema = metadata.schemas.find((s) => s["schema-id"] === current?.["schema-id"]);
  return h(
    "article",
    { "data-testid": "view-page" },
    h(
      "p",
      { class: "crumbs" },
      link(href({ page: "namespaces", warehouse }), warehouse),
      ` / ${dotted(namespace)} /`,
    ),
    h("h1", { "data-testid": "view-name" }, name),
    overview([
      ["metadata location", loaded["metadata-location"]],
      ["location", metadata.location],
      ["view uuid", metadata["view-uuid"]],
      ["format version", metadata["format-version"]],
      ["current version", metadata["current-version-id"]],
    ]),
    section(
      `Schema ${schema ? schema["schema-id"] : ""}`,
      schema ? schemaTable(schema) : h("p", {}, "No schema"),
    ),
    section(
      "Versions",
      h(
        "ol",
        { class: "timeline", reversed: true, "data-testid": "versions" },
        [...metadata.versions]
          .sort((a, b) => b["version-id"] - a["version-id"])
          .map((version) =>
            h(
              "li",
              { class: version === current ? "current" : undefined },
              h(
                "p",
                {},
                h("strong", {}, `version ${version["version-id"]}`),
                ` · ${time(version["timestamp-ms"])} · schema ${version["schema-id"]}`,
                ` · default namespace ${dotted(version["default-namespace"])}`,
              ),
              summary(version.summary),
              version.representations.map((representation) =>
                h(
                  "figure",
                  {},
                  h("figcaption", {}, `${representation.type} · ${representation.dialect}`),
                  h("pre", { class: "sql" }, representation.sql),
                ),
              ),
            ),
          ),
      ),
    ),
    section("Properties", properties(metadata.properties ?? {})),
  );
}

function overview(entries: [string, Child][]): HTMLElement {
  return h(
    "dl",
    { class: "overview" },
    entries.map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]),
  );
}

function properties(values: Record<string, string>): HTMLElement {
  return table(
    ["key", "value"],
    Object.entries(values)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, value]) => [key, value]),
    "properties",
  );
}

/** Every field, nested ones indented under their parent, with list elements and map entries. */
function schemaTable(schema: Schema): HTMLElement {
  const rows: Child[][] = [];
  const addType = (type: Type, depth: number): void => {
    if (typeof type === "string") {
      return;
    }
    if (type.type === "struct") {
      for (const child of type.fields) {
        addField(child, depth);
      }
    } else if (type.type === "list") {
      addRow(type["element-id"], "element", type.element, type["element-required"], "", depth);
    } else {
      addRow(type["key-id"], "key", type.key, true, "", depth);
      addRow(type["value-id"], "value", type.value, type["value-required"], "", depth);
    }
  };
  const addRow = (
    id: number,
    name: string,
    type: Type,
    required: boolean,
    doc: string,
    depth: number,
  ): void => {
    rows.push([
      id,
      h("span", { class: `depth-${Math.min(depth, 6)}` }, name),
      typeName(type),
      required ? "required" : "optional",
      doc,
    ]);
    addType(type, depth + 1);
  };
  const addField = (field: Field, depth: number): void =>
    addRow(field.id, field.name, field.type, field.required, field.doc ?? "", depth);
  addType(schema, 0);
  return table(["id", "name", "type", "", "doc"], rows, "schema");
}

function collectNames(fields: Field[], parent: string, names: Map<number, string>): void {
  for (const field of fields) {
    const name = parent + field.name;
    names.set(field.id, name);
    if (typeof field.type !== "string" && field.type.type === "struct") {
      collectNames(field.type.fields, `${name}.`, names);
    }
  }
}

function partitionSpec(metadata: TableMetadata, columns: Map<number, string>): HTMLElement {
  const spec = metadata["partition-specs"].find((s) => s["spec-id"] === metadata["default-spec-id"]);
  const fields = spec?.fields ?? [];
  return section(
    `Partition spec ${metadata["default-spec-id"]}`,
    fields.length === 0
      ? h("p", {}, "Unpartitioned")
      : table(
          ["field id", "name", "transform", "source"],
          fields.map((f) => [
            f["field-id"],
            f.name,
            f.transform,
            `${columns.get(f["source-id"]) ?? "?"} (${f["source-id"]})`,
          ]),
          "partition-spec",
        ),
  );
}

function sortOrder(metadata: TableMetadata, columns: Map<number, string>): HTMLElement {
  const order = metadata["sort-orders"].find(
    (o) => o["order-id"] === metadata["default-sort-order-id"],
  );
  const fields = order?.fields ?? [];
  return section(
    `Sort order ${metadata["default-sort-order-id"]}`,
    fields.length === 0
      ? h("p", {}, "Unsorted")
      : table(
          ["source", "transform", "direction", "nulls"],
          fields.map((f) => [
            `${columns.get(f["source-id"]) ?? "?"} (${f["source-id"]})`,
            f.transform,
            f.direction,
            f["null-order"],
          ]),
          "sort-order",
        ),
  );
}

/** The snapshots, newest first, each with its operation and the rest of its summary. */
function timeline(metadata: TableMetadata): HTMLElement {
  const snapshots: Snapshot[] = [...(metadata.snapshots ?? [])].sort(
    (a, b) => b["timestamp-ms"] - a["timestamp-ms"],
  );
  if (snapshots.length === 0) {
    return h("p", { "data-testid": "snapshots" }, "No snapshots");
  }
  const refsOf = new Map<LongId, string[]>();
  for (const [name, ref] of Object.entries(metadata.refs ?? {})) {
    refsOf.set(ref["snapshot-id"], [...(refsOf.get(ref["snapshot-id"]) ?? []), name]);
  }
  return h(
    "ol",
    { class: "timeline", "data-testid": "snapshots" },
    snapshots.map((snapshot) =>
      h(
        "li",
        {
          class: snapshot["snapshot-id"] === metadata["current-snapshot-id"] ? "current" : undefined,
          "data-snapshot-id": String(snapshot["snapshot-id"]),
        },
        h(
          "p",
          {},
          h("strong", { class: "operation" }, snapshot.summary.operation ?? "unknown"),
          ` · ${time(snapshot["timestamp-ms"])} · snapshot ${snapshot["snapshot-id"]}`,
          snapshot["parent-snapshot-id"] !== undefined
            ? ` · parent ${snapshot["parent-snapshot-id"]}`
            : "",
          snapshot["sequence-number"] !== undefined
            ? ` · sequence ${snapshot["sequence-number"]}`
            : "",
          (refsOf.get(snapshot["snapshot-id"]) ?? []).map((ref) => h("span", { class: "ref" }, ref)),
        ),
        summary(snapshot.summary),
      ),
    ),
  );
}

function summary(values: Record<string, string>): HTMLElement {
  return h(
    "dl",
    { class: "summary" },
    Object.entries(values)
      .filter(([key]) => key !== "operation")
      .map(([key, value]) => [h("dt", {}, key), h("dd", {}, value)]),
  );
}
