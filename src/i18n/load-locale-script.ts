/*
 * Loads a shipped locale's catalogue in the script-tag file (`dist/itch-oauth.iife.js`), which
 * carries English alone: `locales/<locale>.js` beside the script-tag file's own address (so the
 * same origin, and a CSP that allows the one allows the other), a classic script that hands its
 * catalogue to the `<script>` element that runs it (`document.currentScript`): no global.
 * (vite.config.ts puts this file in place of load-locale.ts for that build.)
 */
import type { WidgetMessages } from './catalogue.js';

/** The script-tag file's own address, read while it first runs (later there is no current script). */
const base = (document.currentScript as HTMLScriptElement | null)?.src;

/** The elements' words of a shipped locale other than English. */
export function loadLocale(locale: string): Promise<Partial<WidgetMessages>> {
  return new Promise((resolve) => {
    const script = document.createElement('script') as HTMLScriptElement & { m?: Partial<WidgetMessages> };
    // (Without a base address, new URL throws: the promise rejects, and the locale is said in English.)
    script.src = new URL(`locales/${locale}.js`, base).href;
    // A file that did not load, or did not hand a catalogue over: English.
    script.onload = script.onerror = () => resolve(script.m ?? {});
    document.head.append(script);
  });
}
