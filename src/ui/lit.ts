/*
 * Lit, as the elements and login()'s dialogs import it: importable where there is no DOM too, and
 * leaving no global behind there. A module's imports are evaluated in their order
 * (https://tc39.es/ecma262/#sec-innermoduleevaluation): ./before-lit.js, then Lit, then
 * ./after-lit.js. (./after-lit.js is a side effect in package.json, so a bundler keeps it; for
 * the order in dist/, where Lit is imported, see vite.config.ts.)
 */
import './before-lit.js';
export {
  LitElement,
  css,
  html,
  nothing,
  unsafeCSS,
  type PropertyDeclarations,
  type PropertyValues,
  type ReactiveController,
  type ReactiveControllerHost,
} from 'lit';
import './after-lit.js';
