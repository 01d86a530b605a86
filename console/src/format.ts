import type { Type } from "./iceberg";

/** A time in UTC, to the second: the same for every operator, wherever their browser is. */
export function time(epochMillis: number): string {
  return new Date(epochMillis).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

/** A type as Iceberg writes it: primitives by name, nested types by their shape. */
export function typeName(type: Type): string {
  if (typeof type === "string") {
    return type;
  }
  switch (type.type) {
    case "struct":
      return "struct";
    case "list":
      return `list<${typeName(type.element)}>`;
    case "map":
      return `map<${typeName(type.key)}, ${typeName(type.value)}>`;
  }
}

/** A namespace as people write it: its levels joined with dots. */
export function dotted(levels: string[]): string {
  return levels.join(".");
}
