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
 *
 * Why a shim rather than a build of the main entry without Lit for the `node`, `deno` and `workerd`
 * export conditions (https://nodejs.org/api/packages.html#conditional-exports), measured on a 2-core
 * machine, medians of 20 fresh processes: such a build imported in 8 ms in Node where this one
 * takes 26 ms, and a Deno process that imports it ran in 41 ms against 67 ms (packed: 570 B more).
 * But its element classes, login() and gameSession() could only be stand-ins that are not the
 * elements: Lit's own server rendering, and a test that runs the elements in Node over a DOM of
 * its own (happy-dom, jsdom), resolve with the `node` condition and would get those instead of
 * the elements, and `.` would hand a server other classes than `./define` registers. A Worker's
 * size, the cost that counts there, needed no condition: the words are in a chunk apart from Lit
 * (vite.config.ts), so a Worker that asks `.` for playerMessage() alone bundles neither Lit nor
 * this shim (11.4 KB gzip, not 26.4).
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
