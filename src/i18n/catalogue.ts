/*
 * The message catalogues, three files per locale, so that no bundle carries words it never shows:
 * ./locales/<locale>.ts `widget` (the words of the elements, loaded in the browser), ./pages/
 * <locale>.ts `pages` (the popup's pages the server renders: all a Worker carries) and
 * ./desktop/<locale>.ts `desktop` (the desktop login's callback page, imported by src/desktop only).
 * English is the source; a message a catalogue lacks is said in English.
 */
import type { desktop } from './desktop/en.js';
import type { widget } from './locales/en.js';
import type { pages } from './pages/en.js';

/**
 * The elements' words, by key (see `src/i18n/locales/en.ts`).
 * @group Words
 */
export type WidgetMessages = Record<keyof typeof widget, string>;
/** The popup's server-rendered pages' words, by key. */
export type PageMessages = Record<keyof typeof pages, string>;
/** The desktop callback page's words, by key. */
export type DesktopMessages = Record<keyof typeof desktop, string>;

/** The locales the package ships, as BCP 47 tags. */
export const LOCALES = ['en', 'es', 'pt-BR', 'fr', 'de', 'it', 'pl', 'ru', 'tr', 'ja', 'ko', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** `message` with each `{name}` replaced by `values[name]` (an unknown name is left as it is). */
export function format(message: string, values: Record<string, string>): string {
  return message.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);
}
