/*
 * Lit, as the elements and login()'s dialogs import it: importable where there is no DOM too, and
 * leaving no global behind there (see ./no-dom-shim.ts). A module's imports are evaluated in their
 * order, and its own body after them (https://tc39.es/ecma262/#sec-innermoduleevaluation):
 * ./no-dom-shim.js, then Lit, then removeNoDomShim() below. (This module is a side effect in
 * package.json, so a bundler keeps that call; for the order in dist/, where Lit is imported, see
 * vite.config.ts.)
 */
import { removeNoDomShim } from './no-dom-shim.js';
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

removeNoDomShim();
