/*
 * The elements' words in the reader's language. The locale is the one of the element's
 * closest `lang` attribute (the document's `<html lang>` at the latest), else of the browser
 * (`navigator.languages`), else English; English is built in, another locale is loaded the
 * first time an element needs it (see load-locale.ts), and a site may override any message or
 * add a language with `setMessages`.
 */
import { LOCALES, type WidgetMessages } from './catalogue.js';
import { loadLocale } from './load-locale.js';
import { matchLocale } from './match.js';
import { documentProperty } from '../core/page-document.js';

/** Each shipped locale's catalogue once loaded (`null` while it loads), English's empty: it is the base. */
const loaded: Record<string, Partial<WidgetMessages> | null> = { en: {} };
/** What the site set with `setMessages`, by locale. */
const overrides: Record<string, Partial<WidgetMessages>> = {};
const watchers = new Set<() => void>();
let observer: MutationObserver | undefined;
const changed = () => watchers.forEach((update) => update());

/**
 * Sets messages for a locale (`'de'`, or a locale the package does not ship, which it then
 * offers), over the shipped ones: `setMessages('de', { login: 'Mit itch.io anmelden' })`. A key
 * left out keeps the shipped message (English for a new locale). The elements on the page
 * re-render. The keys are those of `src/i18n/locales/en.ts`.
 */
export function setMessages(locale: string, messages: Partial<WidgetMessages>): void {
  overrides[locale] = { ...overrides[locale], ...messages };
  changed();
}

/**
 * The words for `node` (see the top of this file for its locale) over `en`, the English words the
 * caller shows (its part of `src/i18n/locales/en.ts`: the button-only file carries no callback
 * page's words), or `undefined` while its locale loads (the caller waits for `watch` rather than
 * showing English first). A locale that fails to load is said in English.
 */
export function messagesFor<Words extends Partial<WidgetMessages>>(node: Element, en: Words): Words | undefined {
  // (No lang attribute: `undefined`, which matches no locale.)
  const lang = node.closest('[lang]:not([lang=""])')?.getAttribute('lang');
  const locale = matchLocale([lang, ...navigator.languages], [...LOCALES, ...Object.keys(overrides)]) ?? 'en';
  if (!(locale in loaded) && (LOCALES as readonly string[]).includes(locale)) {
    loaded[locale] = null;
    loadLocale(locale)
      .catch(() => ({}))
      .then((messages) => {
        loaded[locale] = messages;
        changed();
      });
  }
  const shipped = loaded[locale];
  return shipped === null ? undefined : ({ ...en, ...shipped, ...overrides[locale] } as Words);
}

/**
 * Calls `update` whenever the words may have changed: a `lang` attribute anywhere in the
 * document, a locale loaded, `setMessages`. Returns the way to stop.
 */
export function watch(update: () => void): () => void {
  (observer ??= new MutationObserver(changed)).observe(documentProperty('documentElement'), { attributeFilter: ['lang'], subtree: true });
  watchers.add(update);
  return () => watchers.delete(update);
}
