// The console's addresses, after the # so that the server only ever serves /ui: each part
// percent-encoded, a namespace's levels joined by the unit separator as in the REST paths.

export type Route =
  | { page: "warehouses" }
  | { page: "namespaces"; warehouse: string }
  | { page: "table"; warehouse: string; namespace: string[]; name: string }
  | { page: "view"; warehouse: string; namespace: string[]; name: string }
  | { page: "access"; warehouse?: string }
  | { page: "purge"; warehouse?: string };

const SEPARATOR = "\u001f";

export function href(route: Route): string {
  const parts: string[] = [route.page];
  switch (route.page) {
    case "warehouses":
      return "/";
    case "namespaces":
      parts.push(route.warehouse);
      break;
    case "table":
    case "view":
      parts.push(route.warehouse, route.namespace.join(SEPARATOR), route.name);
      break;
    case "access":
    case "purge":
      if (route.warehouse !== undefined) {
        parts.push(route.warehouse);
      }
      break;
  }
  return "/" + parts.map(encodeURIComponent).join("/");
}

export function parse(hash: string): Route {
  const parts = hash
    .replace(/^#?\/?/, "")
    .split("/")
    .filter((part) => part.length > 0)
    .map(decodeURIComponent);
  const [page, warehouse, namespace, name] = parts;
  switch (page) {
    case "namespaces":
      if (warehouse !== undefined) {
        return { page, warehouse };
      }
      break;
    case "table":
    case "view":
      if (warehouse !== undefined && namespace !== undefined && name !== undefined) {
        return { page, warehouse, namespace: namespace.split(SEPARATOR), name };
      }
      break;
    case "access":
    case "purge":
      return { page, warehouse };
  }
  return { page: "warehouses" };
}
