// Builds the page from elements and text nodes only: data is never parsed as HTML, so a name
// such as <img src=x onerror=alert(1)> shows as those characters.

export type Child = Node | string | number | null | undefined | false | Child[];

export interface Attributes {
  [name: string]: string | number | boolean | EventListener | undefined;
}

/** An element with attributes (on* ones are listeners) and children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) {
      continue;
    }
    if (typeof value === "function") {
      element.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (value === true) {
      element.setAttribute(name, "");
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(parent, child);
    } else if (child instanceof Node) {
      parent.appendChild(child);
    } else {
      parent.appendChild(document.createTextNode(String(child)));
    }
  }
}

/** Replaces everything in {@code parent} with {@code children}. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A table with a header row and one row per entry; cells are children like any other. */
export function table(headers: string[], rows: Child[][], testId?: string): HTMLTableElement {
  return h(
    "table",
    { "data-testid": testId },
    h("thead", {}, h("tr", {}, headers.map((header) => h("th", {}, header)))),
    h(
      "tbody",
      {},
      rows.map((row) => h("tr", {}, row.map((cell) => h("td", {}, cell)))),
    ),
  );
}

/** A section with a heading. */
export function section(title: string, ...children: Child[]): HTMLElement {
  return h("section", {}, h("h2", {}, title), ...children);
}

/** A link to a route of the console (the part after #). */
export function link(route: string, ...children: Child[]): HTMLAnchorElement {
  return h("a", { href: `#${route}` }, ...children);
}

/** A labelled text input. */
export function field(
  label: string,
  name: string,
  options: { type?: string; value?: string; placeholder?: string } = {},
): HTMLLabelElement {
  return h(
    "label",
    {},
    h("span", {}, label),
    h("input", {
      name,
      type: options.type ?? "text",
      value: options.value,
      placeholder: options.placeholder,
      autocomplete: "off",
    }),
  );
}

/** A labelled choice among fixed values. */
export function choice(label: string, name: string, values: string[]): HTMLLabelElement {
  return h(
    "label",
    {},
    h("span", {}, label),
    h("select", { name }, values.map((value) => h("option", { value }, value))),
  );
}

/** The value of a form's named input or select. */
export function valueOf(form: HTMLFormElement, name: string): string {
  const control = form.elements.namedItem(name);
  if (control instanceof HTMLInputElement || control instanceof HTMLSelectElement) {
    return control.value.trim();
  }
  throw new Error(`The form has no field ${name}`);
}
