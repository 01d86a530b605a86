import { ApiError, call, namespacePath, segment } from "./api";
import { field, h, link, section, table, valueOf } from "./dom";
import type { TableIdentifier } from "./iceberg";
import { href } from "./routes";

interface Warehouse {
  name: string;
  location: string;
  properties?: Record<string, string>;
}

/** The REST prefix of a warehouse, as its /v1/config says. */
export async function prefixOf(warehouse: string): Promise<string> {
  const config = await call<{ overrides?: Record<string, string> }>(
    "GET",
    `/v1/config?warehouse=${segment(warehouse)}`,
  );
  return config.overrides?.prefix ?? warehouse;
}

/** Every entry of a paged list, following next-page-token. */
export async function listAll<T>(path: string, key: string): Promise<T[]> {
  const entries: T[] = [];
  let token: string | undefined;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const page = await call<Record<string, unknown>>(
      "GET",
      token === undefined ? path : `${path}${separator}pageToken=${segment(token)}`,
    );
    entries.push(...((page[key] as T[] | undefined) ?? []));
    const next = page["next-page-token"];
    token = typeof next === "string" && next.length > 0 ? next : undefined;
  } while (token !== undefined);
  return entries;
}

/** The warehouses the caller may list (service_admin), or a form to open one by name. */
export async function warehousesPage(): Promise<HTMLElement> {
  const open = h(
    "form",
    {
      class: "inline",
      onsubmit: (event: Event) => {
        event.preventDefault();
        const name = valueOf(event.target as HTMLFormElement, "warehouse");
        if (name) {
          location.hash = href({ page: "namespaces", warehouse: name });
        }
      },
    },
    field("Open warehouse", "warehouse", { placeholder: "default" }),
    h("button", { type: "submit" }, "Open"),
  );
  try {
    const warehouses = await listAll<Warehouse>("/admin/v1/warehouses", "warehouses");
    return section(
      "Warehouses",
      table(
        ["name", "location", "properties"],
        warehouses.map((warehouse) => [
          link(href({ page: "namespaces", warehouse: warehouse.name }), warehouse.name),
          warehouse.location,
          Object.entries(warehouse.properties ?? {})
            .map(([key, value]) => `${key}=${value}`)
            .join(", "),
        ]),
        "warehouses",
      ),
      open,
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      return section(
        "Warehouses",
        h("p", {}, "Listing warehouses needs the service_admin role: open one by name."),
        open,
      );
    }
    throw error;
  }
}

/** A warehouse's namespaces as a tree, each opened on demand with its tables and views. */
export async function namespacesPage(warehouse: string): Promise<HTMLElement> {
  const prefix = await prefixOf(warehouse);
  const tree = h("ul", { class: "tree", "data-testid": "namespace-tree" });
  await fillNamespace(tree, warehouse, prefix, []);
  return section(
    `Warehouse ${warehouse}`,
    h(
      "p",
      { class: "links" },
      link(href({ page: "access", warehouse }), "Access"),
      " · ",
      link(href({ page: "purge", warehouse }), "Purge jobs"),
    ),
    tree,
  );
}

async function fillNamespace(
  list: HTMLUListElement,
  warehouse: string,
  prefix: string,
  parent: string[],
): Promise<void> {
  const base = `/v1/${segment(prefix)}/namespaces`;
  const children = await listAll<string[]>(
    parent.length === 0 ? base : `${base}?parent=${namespacePath(parent)}`,
    "namespaces",
  );
  if (parent.length > 0) {
    const path = `${base}/${namespacePath(parent)}`;
    const [tables, views] = await Promise.all([
      listAll<TableIdentifier>(`${path}/tables`, "identifiers"),
      // a principal may list a namespace's tables and hold nothing on its views
      listAll<TableIdentifier>(`${path}/views`, "identifiers").catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 403) {
          return [];
        }
        throw error;
      }),
    ]);
    for (const identifier of tables) {
      list.append(
        h(
          "li",
          { class: "table" },
          link(
            href({ page: "table", warehouse, namespace: parent, name: identifier.name }),
            identifier.name,
          ),
          h("small", {}, " table"),
        ),
      );
    }
    for (const identifier of views) {
      list.append(
        h(
          "li",
          { class: "view" },
          link(
            href({ page: "view", warehouse, namespace: parent, name: identifier.name }),
            identifier.name,
          ),
          h("small", {}, " view"),
        ),
      );
    }
  }
  for (const namespace of children) {
    list.append(namespaceNode(warehouse, prefix, namespace));
  }
  if (list.childElementCount === 0) {
    list.append(h("li", { class: "empty" }, "(empty)"));
  }
}

function namespaceNode(warehouse: string, prefix: string, namespace: string[]): HTMLLIElement {
  const children = h("ul", { class: "tree" });
  const details = h(
    "details",
    { "data-namespace": namespace.join(".") },
    h("summary", {}, namespace[namespace.length - 1] ?? ""),
    children,
  );
  let loaded = false;
  details.addEventListener("toggle", () => {
    if (details.open && !loaded) {
      loaded = true;
      fillNamespace(children, warehouse, prefix, namespace).catch((error: unknown) => {
        loaded = false;
        children.replaceChildren(h("li", { class: "error" }, String(error)));
      });
    }
  });
  return h("li", {}, details);
}
