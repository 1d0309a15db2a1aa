/*
 * Loads a shipped locale's catalogue in the script-tag files (`dist/itch-oauth.iife.js` and
 * `dist/itch-oauth-button.iife.js`), which carry English alone: `locales/<locale>.js` beside the
 * script-tag file's own address (so the same origin, and a CSP that allows the one allows the
 * other), a classic script that hands its catalogue to the `<script>` element that runs it
 * (`document.currentScript`): no global.
 * (vite.config.ts puts this file in place of load-locale.ts for those builds.)
 *
 * "Its own address" is its own `<script>` element's, asked of the browser's getter: an element
 * of the page that names itself `currentScript` (see page-document.ts) would otherwise choose
 * where the language files, and so scripts that run on the site, come from.
 */
import { createElement, documentProperty, ownScript } from '../core/page-document.js';
import { LOCALES, type WidgetMessages } from './catalogue.js';

/**
 * The script-tag file's own address, read while it first runs (later there is no current
 * script): `undefined` when it is not run by a `<script src>` of its own.
 */
const base = ownScript()?.src || undefined;

/**
 * A shipped locale's file address, and no other (whatever the caller passes). Without a base
 * address, new URL throws: the locale is said in English.
 */
const address = (locale: string) => {
  if (!(LOCALES as readonly string[]).includes(locale)) throw TypeError(locale);
  return new URL(`locales/${locale}.js`, base).href;
};

type Policy = { createScriptURL(locale: string): string };
/**
 * The Trusted Types policy `itch-oauth-locale`, which makes the locale files' addresses and no
 * other: a page that requires Trusted Types for scripts (the callback page's CSP in
 * docs/concepts/security.md) allows it by name. Where it cannot be made, the address is a string.
 */
let policy: Policy | undefined | null;

/** The elements' words of a shipped locale other than English. */
export function loadLocale(locale: string): Promise<Partial<WidgetMessages>> {
  return new Promise((resolve) => {
    const script = createElement('script') as HTMLScriptElement & { m?: Partial<WidgetMessages> };
    // Made once: where the page's CSP names the policies it allows and not this one, the one
    // refusal (and its report) is enough (null: tried).
    if (policy === undefined) {
      policy = null;
      try {
        policy =
          (self as { trustedTypes?: { createPolicy(name: string, rules: object): Policy } }).trustedTypes?.createPolicy(
            'itch-oauth-locale',
            { createScriptURL: address },
          ) ?? null;
      } catch {
        // (Refused.)
      }
    }
    // (A string where Trusted Types are required throws: the promise rejects, and English it is.)
    script.src = policy?.createScriptURL(locale) ?? address(locale);
    // A file that did not load, or did not hand a catalogue over: English, and why in the console.
    script.onload = script.onerror = () => {
      if (!script.m) console.warn(`itch-oauth-widget: no ${locale} words at ${script.src}: serve locales/ beside the script file`);
      resolve(script.m ?? {});
    };
    documentProperty('head').append(script);
  });
}
