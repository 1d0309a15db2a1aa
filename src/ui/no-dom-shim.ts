/*
 * Stand-ins for the two DOM globals Lit's browser build reads as it loads, where there is no DOM,
 * and their removal once Lit has loaded. ./lit.ts imports this module before Lit and calls
 * `removeNoDomShim()` in its own body, which runs after Lit
 * (https://tc39.es/ecma262/#sec-innermoduleevaluation).
 *
 * A server imports the package's main entry too: one that renders an app's pages (Next.js, Nuxt,
 * SvelteKit, Astro), and a Worker or a game server calling playerMessage(). Node and Deno resolve
 * Lit with its `node` condition (its build with a DOM shim of its own, which leaves a global
 * `customElements`); workerd, and a server that resolves with the `browser` condition, take Lit's
 * browser build, which extends `HTMLElement` and makes a TreeWalker of `document` as it loads.
 * Only those are stood in for, only until Lit has loaded, and nothing is left behind. In a browser
 * nothing changes.
 */

/** The globals absent before Lit loaded: stood in for here, or added by Lit's `node` build (`customElements`). */
const absent = (['HTMLElement', 'document', 'customElements'] as const).filter((name) => !(name in globalThis));

if (absent.includes('HTMLElement')) Object.assign(globalThis, { HTMLElement: class {} });
if (absent.includes('document')) Object.assign(globalThis, { document: { createTreeWalker: () => ({}) } });

/**
 * Takes away each global that was absent before Lit loaded: the stand-ins above, and the
 * `customElements` of Lit's `node` build, so that nothing is registered where there is no browser.
 */
export function removeNoDomShim(): void {
  for (const name of absent) delete (globalThis as Record<string, unknown>)[name];
}
