/*
 * The message catalogues: one file per locale in ./locales, each exporting `widget` (the words
 * of the elements, loaded in the browser) and `pages` (the words of the pages the server renders).
 * English is the source; a message a catalogue lacks is said in English.
 */
import type { pages, widget } from './locales/en.js';

/** The elements' words, by key (see `src/i18n/locales/en.ts`). */
export type WidgetMessages = Record<keyof typeof widget, string>;
/** The server-rendered pages' words, by key. */
export type PageMessages = Record<keyof typeof pages, string>;

/** The locales the package ships, as BCP 47 tags. */
export const LOCALES = ['en', 'es', 'pt-BR', 'fr', 'de', 'it', 'pl', 'ru', 'tr', 'ja', 'ko', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** `message` with each `{name}` replaced by `values[name]` (an unknown name is left as it is). */
export function format(message: string, values: Record<string, string>): string {
  return message.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);
}
