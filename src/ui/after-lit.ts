/*
 * Evaluated just after Lit (see ./lit.ts): takes away each global that was absent before Lit
 * loaded, the stand-ins of ./before-lit.ts and the `customElements` that Lit's `node` build
 * leaves, so that nothing is registered where there is no browser, and nothing is left behind.
 */
import { absent } from './before-lit.js';

for (const name of absent) delete (globalThis as Record<string, unknown>)[name];
