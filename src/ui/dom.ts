/*
 * The two small DOM helpers the elements and login()'s Continue button share, in place of a
 * framework: each builds its shadow tree once with `h`, keeps the nodes it changes, and sets their
 * text (with `text`) and attributes itself. No markup is parsed (no innerHTML), so a page that requires Trusted
 * Types needs no policy for them.
 */

/**
 * The elements' base class: `HTMLElement`, or where there is none (a server that renders the
 * app's pages imports its modules too: Next.js, Nuxt, SvelteKit, Astro) a stand-in, so that
 * importing the package there defines the classes instead of throwing. Only a browser makes one.
 * (Named as the global it stands for, so that the classes' documentation says what they extend.)
 */
export const HTMLElement = (globalThis.HTMLElement ?? class {}) as typeof globalThis.HTMLElement;

/** An element (an SVG one for `svg` and `path`) with these attributes and children. */
export function h<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes?: Record<string, string>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[Tag];
export function h(tag: 'svg' | 'path', attributes?: Record<string, string>, ...children: (Node | string)[]): SVGElement;
export function h(tag: string, attributes: Record<string, string> = {}, ...children: (Node | string)[]): Element {
  const node = document.createElementNS(`http://www.w3.org/${/^(svg|path)$/.test(tag) ? '2000/svg' : '1999/xhtml'}`, tag);
  for (const name in attributes) node.setAttribute(name, attributes[name]!);
  node.append(...children);
  return node;
}

/**
 * What draws an element: `render` in a microtask, once for all the changes asked for before it
 * (`request()`), while `host` is connected; `drawn` resolves (with `true`) once those are drawn,
 * the element's `updateComplete`.
 */
export function drawing(host: Element, render: () => void): { request(): void; readonly drawn: Promise<boolean> } {
  let pending: Promise<boolean> | undefined;
  return {
    request() {
      if (host.isConnected)
        pending ??= Promise.resolve().then(() => {
          pending = undefined;
          render();
          return true;
        });
    },
    get drawn() {
      return pending ?? Promise.resolve(true);
    },
  };
}

/**
 * Sets the node's text only when it changed: a live region (`role=status`, `role=alert`) whose
 * text node is replaced, even by the same words, may be announced again.
 */
export function text(node: Node, words: string): void {
  if (node.textContent !== words) node.textContent = words;
}

/**
 * A shadow root for `host` with `css` adopted: one constructable style sheet per text, made the
 * first time (not when the module loads: a server may import it) and shared by every instance.
 */
export function shadow(host: HTMLElement, css: string): ShadowRoot {
  const root = host.attachShadow({ mode: 'open' });
  let sheet = sheets.get(css);
  if (!sheet) {
    sheets.set(css, (sheet = new CSSStyleSheet()));
    sheet.replaceSync(css);
  }
  root.adoptedStyleSheets = [sheet];
  return root;
}
const sheets = new Map<string, CSSStyleSheet>();

/**
 * Gives each of `keys` that a script set on the element before it was defined (an own property
 * then, hiding the class's accessor) to the accessor: called in the constructor.
 */
export function upgrade(host: object, keys: string[]): void {
  const element = host as Record<string, unknown>;
  for (const key of keys) {
    if (Object.hasOwn(element, key)) {
      const value = element[key];
      delete element[key];
      element[key] = value;
    }
  }
}
