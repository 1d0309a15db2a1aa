/*
 * Evaluated just before Lit (see ./lit.ts), where there is no DOM: a server that renders an app's
 * pages imports the package too (Next.js, Nuxt, SvelteKit, Astro; workerd, and a server that
 * resolves with the `browser` condition, take Lit's browser build, which needs a DOM as it
 * loads). That build reads two globals while it loads: `HTMLElement`, which its base class
 * extends, and `document`, of which it makes a TreeWalker ahead of any template. Only those are
 * stood in for, and only until Lit has loaded (./after-lit.ts). In a browser nothing changes.
 */

/** The globals absent before Lit loaded: stood in for here, or added by Lit's `node` build (`customElements`). */
export const absent = (['HTMLElement', 'document', 'customElements'] as const).filter((name) => !(name in globalThis));

if (absent.includes('HTMLElement')) Object.assign(globalThis, { HTMLElement: class {} });
if (absent.includes('document')) Object.assign(globalThis, { document: { createTreeWalker: () => ({}) } });
