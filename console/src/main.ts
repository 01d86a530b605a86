import { accessPage } from "./access";
import { ApiError, session, tokenFor } from "./api";
import { listAll, namespacesPage, warehousesPage } from "./catalog";
import { field, h, link, replace, valueOf } from "./dom";
import { purgePage } from "./purge";
import { href, parse, type Route } from "./routes";
import { tablePage, viewPage } from "./table";

const main = document.getElementById("main") as HTMLElement;
const nav = document.getElementById("nav") as HTMLElement;

/** The warehouse last looked at, which the Access and Purge jobs links open. */
let currentWarehouse: string | undefined;

function signInPage(): HTMLElement {
  const message = h("p", { class: "notice error", "data-testid": "sign-in-error" });
  const fail = (error: unknown): void => {
    replace(message, error instanceof Error ? error.message : String(error));
  };
  return h(
    "article",
    { class: "sign-in" },
    h("h1", {}, "Sign in to Puddle"),
    h(
      "p",
      {},
      "With a principal's client credentials, or a bearer token. The token is kept for this tab only.",
    ),
    h(
      "form",
      {
        "data-testid": "sign-in",
        onsubmit: (event: Event) => {
          event.preventDefault();
          const form = event.target as HTMLFormElement;
          tokenFor(valueOf(form, "clientId"), valueOf(form, "clientSecret"))
            .then((token) => {
              session.signIn(token);
              void show();
            })
            .catch(fail);
        },
      },
      field("Client id", "clientId"),
      field("Client secret", "clientSecret", { type: "password" }),
      h("button", { type: "submit" }, "Sign in"),
    ),
    h(
      "form",
      {
        "data-testid": "paste-token",
        onsubmit: (event: Event) => {
          event.preventDefault();
          const token = valueOf(event.target as HTMLFormElement, "token");
          if (token) {
            session.signIn(token);
            void show();
          }
        },
      },
      field("Bearer token", "token", { type: "password" }),
      h("button", { type: "submit" }, "Use token"),
    ),
    message,
  );
}

/** The given warehouse, else the one last looked at, else the first the caller may list. */
async function warehouseFor(route: { warehouse?: string }): Promise<string | undefined> {
  if (route.warehouse !== undefined) {
    return route.warehouse;
  }
  if (currentWarehouse !== undefined) {
    return currentWarehouse;
  }
  // listing warehouses needs service_admin; without it the warehouses page asks for a name
  const warehouses = await listAll<{ name: string }>("/admin/v1/warehouses", "warehouses").catch(
    () => [],
  );
  return warehouses[0]?.name;
}

async function render(route: Route): Promise<HTMLElement> {
  switch (route.page) {
    case "warehouses":
      return warehousesPage();
    case "namespaces":
      currentWarehouse = route.warehouse;
      return namespacesPage(route.warehouse);
    case "table":
      currentWarehouse = route.warehouse;
      return tablePage(route.warehouse, route.namespace, route.name);
    case "view":
      currentWarehouse = route.warehouse;
      return viewPage(route.warehouse, route.namespace, route.name);
    case "access":
    case "purge": {
      const warehouse = await warehouseFor(route);
      if (warehouse === undefined) {
        return warehousesPage();
      }
      currentWarehouse = warehouse;
      return route.page === "access" ? accessPage(warehouse) : purgePage(warehouse);
    }
  }
}

function navigation(): HTMLElement[] {
  return [
    link(href({ page: "warehouses" }), "Warehouses"),
    link(href({ page: "access", warehouse: currentWarehouse }), "Access"),
    link(href({ page: "purge", warehouse: currentWarehouse }), "Purge jobs"),
    h(
      "button",
      {
        type: "button",
        class: "small",
        "data-testid": "sign-out",
        onclick: () => {
          session.signOut();
          void show();
        },
      },
      "Sign out",
    ),
  ];
}

/** Counts the pages asked for: a page that loads after a newer one was asked for is dropped. */
let shown = 0;

/** Shows the page of the current address, or the sign-in page without a token. */
async function show(): Promise<void> {
  const generation = ++shown;
  if (session.token() === null) {
    replace(nav);
    replace(main, signInPage());
    return;
  }
  const route = parse(location.hash);
  main.setAttribute("aria-busy", "true");
  try {
    const page = await render(route);
    if (generation === shown) {
      replace(main, page);
    }
  } catch (error) {
    if (generation !== shown) {
      return;
    }
    if (session.token() === null) {
      await show();
      return;
    }
    const status = error instanceof ApiError ? ` (${error.status})` : "";
    replace(
      main,
      h(
        "p",
        { class: "notice error", "data-testid": "page-error" },
        `${error instanceof Error ? error.message : String(error)}${status}`,
      ),
    );
  } finally {
    if (generation === shown) {
      main.removeAttribute("aria-busy");
      replace(nav, navigation());
    }
  }
}

window.addEventListener("hashchange", () => void show());
void show();
