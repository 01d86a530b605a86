// The parts of the Iceberg REST spec's JSON the console reads (TableMetadata, ViewMetadata and
// the list responses), as iceberg-core writes them.

/** A long id (a snapshot's): the server's digits where a number would lose precision. */
export type LongId = number | string;

export type Type = string | StructType | ListType | MapType;

export interface Field {
  id: number;
  name: string;
  required: boolean;
  type: Type;
  doc?: string;
}

export interface StructType {
  type: "struct";
  fields: Field[];
}

export interface ListType {
  type: "list";
  "element-id": number;
  element: Type;
  "element-required": boolean;
}

export interface MapType {
  type: "map";
  "key-id": number;
  key: Type;
  "value-id": number;
  value: Type;
  "value-required": boolean;
}

export interface Schema extends StructType {
  "schema-id": number;
}

export interface PartitionSpec {
  "spec-id": number;
  fields: { "source-id": number; "field-id": number; name: string; transform: string }[];
}

export interface SortOrder {
  "order-id": number;
  fields: { "source-id": number; transform: string; direction: string; "null-order": string }[];
}

export interface Snapshot {
  "snapshot-id": LongId;
  "parent-snapshot-id"?: LongId;
  "sequence-number"?: number;
  "timestamp-ms": number;
  "manifest-list"?: string;
  summary: Record<string, string>;
  "schema-id"?: number;
}

export interface Ref {
  type: "branch" | "tag";
  "snapshot-id": LongId;
  "max-ref-age-ms"?: number;
  "max-snapshot-age-ms"?: number;
  "min-snapshots-to-keep"?: number;
}

export interface TableMetadata {
  "format-version": number;
  "table-uuid": string;
  location: string;
  "last-updated-ms": number;
  properties?: Record<string, string>;
  schemas: Schema[];
  "current-schema-id": number;
  "partition-specs": PartitionSpec[];
  "default-spec-id": number;
  "sort-orders": SortOrder[];
  "default-sort-order-id": number;
  "current-snapshot-id"?: LongId | null;
  snapshots?: Snapshot[];
  refs?: Record<string, Ref>;
  "metadata-log"?: { "timestamp-ms": number; "metadata-file": string }[];
}

export interface LoadTableResult {
  "metadata-location"?: string;
  metadata: TableMetadata;
}

export interface ViewVersion {
  "version-id": number;
  "timestamp-ms": number;
  "schema-id": number;
  summary: Record<string, string>;
  "default-namespace": string[];
  "default-catalog"?: string;
  representations: { type: string; sql: string; dialect: string }[];
}

export interface ViewMetadata {
  "view-uuid": string;
  "format-version": number;
  location: string;
  "current-version-id": number;
  versions: ViewVersion[];
  "version-log": { "timestamp-ms": number; "version-id": number }[];
  schemas: Schema[];
  properties?: Record<string, string>;
}

export interface LoadViewResult {
  "metadata-location": string;
  metadata: ViewMetadata;
}

export interface TableIdentifier {
  namespace: string[];
  name: string;
}
