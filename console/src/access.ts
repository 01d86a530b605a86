import { call, segment } from "./api";
import { listAll } from "./catalog";
import { type Child, choice, field, h, replace, section, table, valueOf } from "./dom";
import { dotted } from "./format";

interface Principal {
  name: string;
  clientId: string;
  properties?: Record<string, string>;
}

interface Role {
  name: string;
  properties?: Record<string, string>;
}

interface Grant {
  type: "catalog" | "namespace" | "table" | "view";
  namespace?: string[];
  tableName?: string;
  viewName?: string;
  privilege: string;
}

const PRIVILEGES = [
  "CATALOG_MANAGE_ACCESS",
  "CATALOG_MANAGE_CONTENT",
  "CATALOG_MANAGE_METADATA",
  "CATALOG_READ_PROPERTIES",
  "NAMESPACE_LIST",
  "NAMESPACE_CREATE",
  "NAMESPACE_READ_PROPERTIES",
  "NAMESPACE_WRITE_PROPERTIES",
  "NAMESPACE_DROP",
  "NAMESPACE_FULL_METADATA",
  "TABLE_LIST",
  "TABLE_CREATE",
  "TABLE_READ_PROPERTIES",
  "TABLE_WRITE_PROPERTIES",
  "TABLE_DROP",
  "TABLE_READ_DATA",
  "TABLE_WRITE_DATA",
  "TABLE_FULL_METADATA",
  "VIEW_LIST",
  "VIEW_CREATE",
  "VIEW_READ_PROPERTIES",
  "VIEW_WRITE_PROPERTIES",
  "VIEW_DROP",
  "VIEW_FULL_METADATA",
];

/** The securable a grant is on, as people write it: catalog, namespace sales.eu, table sales.orders. */
function securable(grant: Grant): string {
  const namespace = dotted(grant.namespace ?? []);
  switch (grant.type) {
    case "catalog":
      return "catalog";
    case "namespace":
      return `namespace ${namespace}`;
    case "table":
      return `table ${namespace}.${grant.tableName ?? ""}`;
    case "view":
      return `view ${namespace}.${grant.viewName ?? ""}`;
  }
}

/**
 * Principals, principal roles, a warehouse's catalog roles and their grants, with forms for each
 * management call: the management API decides who may do what, the page only asks.
 */
export async function accessPage(warehouse: string): Promise<HTMLElement> {
  const notice = h("div", { class: "notice", "data-testid": "notice" });
  const body = h("div", {});
  const root = h("article", { "data-testid": "access-page" }, h("h1", {}, "Access"), notice, body);
  const admin = `/admin/v1`;
  const catalogRoles = `${admin}/warehouses/${segment(warehouse)}/catalog-roles`;

  const act =
    (action: (form: HTMLFormElement) => Promise<Child>) =>
    (event: Event): void => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      action(form)
        .then(async (message) => {
          // the lists first, so that the notice says what the page already shows
          await load();
          replace(notice, message);
          notice.className = "notice ok";
        })
        .catch((error: unknown) => {
          replace(notice, error instanceof Error ? error.message : String(error));
          notice.className = "notice error";
        });
    };

  const load = async (): Promise<void> => {
    const [principals, principalRoles, roles] = await Promise.all([
      listAll<Principal>(`${admin}/principals`, "principals"),
      listAll<Role>(`${admin}/principal-roles`, "roles"),
      listAll<Role>(catalogRoles, "roles"),
    ]);
    const grants = (
      await Promise.all(
        roles.map(async (role) =>
          (
            await listAll<Grant>(`${catalogRoles}/${segment(role.name)}/grants`, "grants")
          ).map((grant) => ({ role: role.name, grant })),
        ),
      )
    ).flat();
    const filter = h("input", {
      name: "securable",
      placeholder: "filter by securable, e.g. namespace sales",
      "data-testid": "grant-filter",
    });
    const grantRows = h("tbody", {});
    const showGrants = (): void => {
      const wanted = filter.value.trim().toLowerCase();
      replace(
        grantRows,
        grants
          .filter(({ grant }) => securable(grant).toLowerCase().includes(wanted))
          .map(({ role, grant }) =>
            h(
              "tr",
              {},
              h("td", {}, role),
              h("td", {}, securable(grant)),
              h("td", {}, grant.privilege),
              h(
                "td",
                {},
                h(
                  "button",
                  {
                    type: "button",
                    class: "small",
                    onclick: act(async () => {
                      await call("POST", `${catalogRoles}/${segment(role)}/grants`, { grant });
                      return `Revoked ${grant.privilege} on ${securable(grant)} from ${role}`;
                    }),
                  },
                  "revoke",
                ),
              ),
            ),
          ),
      );
    };
    filter.addEventListener("input", showGrants);
    showGrants();

    replace(
      body,
      section(
        "Principals",
        table(
          ["name", "client id"],
          principals.map((p) => [p.name, p.clientId]),
          "principals",
        ),
        h(
          "form",
          {
            "data-testid": "create-principal",
            onsubmit: act(async (form) => {
              const name = valueOf(form, "name");
              const created = await call<{
                credentials: { clientId: string; clientSecret: string };
              }>("POST", `${admin}/principals`, { principal: { name, properties: {} } });
              return h(
                "div",
                { "data-testid": "new-credentials" },
                h("p", {}, `Created principal ${name}. Its secret is shown this once:`),
                h(
                  "dl",
                  {},
                  h("dt", {}, "client id"),
                  h("dd", {}, h("code", { "data-testid": "client-id" }, created.credentials.clientId)),
                  h("dt", {}, "client secret"),
                  h(
                    "dd",
                    {},
                    h("code", { "data-testid": "client-secret" }, created.credentials.clientSecret),
                  ),
                ),
              );
            }),
          },
          field("New principal", "name"),
          h("button", { type: "submit" }, "Create principal"),
        ),
      ),
      section(
        "Principal roles",
        table(
          ["name"],
          principalRoles.map((r) => [r.name]),
          "principal-roles",
        ),
        h(
          "form",
          {
            "data-testid": "create-principal-role",
            onsubmit: act(async (form) => {
              const name = valueOf(form, "name");
              await call("POST", `${admin}/principal-roles`, {
                principalRole: { name, properties: {} },
              });
              return `Created principal role ${name}`;
            }),
          },
          field("New principal role", "name"),
          h("button", { type: "submit" }, "Create principal role"),
        ),
        h(
          "form",
          {
            "data-testid": "assign-principal-role",
            onsubmit: act(async (form) => {
              const principal = valueOf(form, "principal");
              const role = valueOf(form, "principalRole");
              await call("PUT", `${admin}/principals/${segment(principal)}/principal-roles`, {
                principalRole: { name: role },
              });
              return `Gave principal role ${role} to ${principal}`;
            }),
          },
          field("Principal", "principal"),
          field("gets principal role", "principalRole"),
          h("button", { type: "submit" }, "Assign"),
        ),
      ),
      section(
        `Catalog roles of ${warehouse}`,
        table(
          ["name"],
          roles.map((r) => [r.name]),
          "catalog-roles",
        ),
        h(
          "form",
          {
            "data-testid": "create-catalog-role",
            onsubmit: act(async (form) => {
              const name = valueOf(form, "name");
              await call("POST", catalogRoles, { catalogRole: { name, properties: {} } });
              return `Created catalog role ${name}`;
            }),
          },
          field("New catalog role", "name"),
          h("button", { type: "submit" }, "Create catalog role"),
        ),
        h(
          "form",
          {
            "data-testid": "assign-catalog-role",
            onsubmit: act(async (form) => {
              const principalRole = valueOf(form, "principalRole");
              const role = valueOf(form, "catalogRole");
              await call(
                "PUT",
                `${admin}/principal-roles/${segment(principalRole)}/catalog-roles/${segment(warehouse)}`,
                { catalogRole: { name: role } },
              );
              return `Gave catalog role ${role} to principal role ${principalRole}`;
            }),
          },
          field("Principal role", "principalRole"),
          field("gets catalog role", "catalogRole"),
          h("button", { type: "submit" }, "Assign"),
        ),
      ),
      section(
        "Grants",
        filter,
        h(
          "table",
          { "data-testid": "grants" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["catalog role", "securable", "privilege", ""].map((name) => h("th", {}, name)),
            ),
          ),
          grantRows,
        ),
        h(
          "form",
          {
            "data-testid": "grant",
            onsubmit: act(async (form) => {
              const role = valueOf(form, "catalogRole");
              const grant = grantOf(
                valueOf(form, "type") as Grant["type"],
                valueOf(form, "namespace"),
                valueOf(form, "name"),
                valueOf(form, "privilege"),
              );
              await call("PUT", `${catalogRoles}/${segment(role)}/grants`, { grant });
              return `Granted ${grant.privilege} on ${securable(grant)} to ${role}`;
            }),
          },
          choice("Grant", "privilege", PRIVILEGES),
          choice("on", "type", ["catalog", "namespace", "table", "view"]),
          field("namespace", "namespace", { placeholder: "sales.eu" }),
          field("table or view", "name"),
          field("to catalog role", "catalogRole"),
          h("button", { type: "submit" }, "Grant"),
        ),
      ),
    );
  };
  await load();
  return root;
}

/** A grant from the form: a namespace's levels as people write them, separated by dots. */
function grantOf(type: Grant["type"], namespace: string, name: string, privilege: string): Grant {
  const levels = namespace.length === 0 ? [] : namespace.split(".");
  switch (type) {
    case "catalog":
      return { type, privilege };
    case "namespace":
      return { type, namespace: levels, privilege };
    case "table":
      return { type, namespace: levels, tableName: name, privilege };
    case "view":
      return { type, namespace: levels, viewName: name, privilege };
  }
}
