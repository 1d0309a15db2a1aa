/*
 * Loads a shipped locale's catalogue, in the npm build: each locale is its own chunk, fetched
 * only when an element needs it. (The script-tag build loads `locales/<locale>.js` beside itself
 * instead: see load-locale-script.ts.)
 */
import type { WidgetMessages } from './catalogue.js';

type Module = Promise<{ widget: WidgetMessages }>;
const chunks: Record<string, () => Module> = {
  es: () => import('./locales/es.js'),
  'pt-BR': () => import('./locales/pt-BR.js'),
  fr: () => import('./locales/fr.js'),
  de: () => import('./locales/de.js'),
  it: () => import('./locales/it.js'),
  pl: () => import('./locales/pl.js'),
  ru: () => import('./locales/ru.js'),
  tr: () => import('./locales/tr.js'),
  ja: () => import('./locales/ja.js'),
  ko: () => import('./locales/ko.js'),
  'zh-CN': () => import('./locales/zh-CN.js'),
};

/** The elements' words of a shipped locale other than English. */
export async function loadLocale(locale: string): Promise<Partial<WidgetMessages>> {
  return (await chunks[locale]!()).widget;
}
