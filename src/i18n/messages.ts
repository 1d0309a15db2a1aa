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
 * @group Words
 */
export function setMessages(locale: string, messages: Partial<WidgetMessages>): void {
  overrides[locale] = { ...overrides[locale], ...messages };
  changed();
}

/**
 * The locale for a `lang` attribute's value (or none): the shipped or added one it matches, else the
 * browser's, else English. (Node 20 has no `navigator`, workerd's has no `languages`.)
 */
const localeOf = (lang: string | null | undefined): string =>
  matchLocale([lang, ...((globalThis as { navigator?: Navigator }).navigator?.languages ?? [])], [...LOCALES, ...Object.keys(overrides)]) ??
  'en';

/** Each shipped locale's loading, started once: English is built in. */
const loading: Record<string, Promise<void> | undefined> = {};

/** Starts loading a shipped locale's words (once; a locale the package does not ship loads nothing). */
function load(locale: string): Promise<void> | undefined {
  if (locale in loaded || !(LOCALES as readonly string[]).includes(locale)) return loading[locale];
  loaded[locale] = null;
  return (loading[locale] = loadLocale(locale)
    .catch(() => ({}))
    .then((messages) => {
      loaded[locale] = messages;
      changed();
    }));
}

/** The words of a locale that has loaded (or needs none) over `en`, with the site's. */
const wordsOf = <Words>(locale: string, en: Words): Words => ({ ...en, ...loaded[locale], ...overrides[locale] }) as Words;

/**
 * The words for `node` (see the top of this file for its locale) over `en`, the English words the
 * caller shows (its part of `src/i18n/locales/en.ts`: the button-only file carries no callback
 * page's words), or `undefined` while its locale loads (the caller waits for `watch` rather than
 * showing English first). A locale that fails to load is said in English.
 */
export function messagesFor<Words extends Partial<WidgetMessages>>(node: Element, en: Words): Words | undefined {
  // (No lang attribute: `undefined`, which matches no locale.)
  const locale = localeOf(node.closest('[lang]:not([lang=""])')?.getAttribute('lang'));
  void load(locale);
  return loaded[locale] === null ? undefined : wordsOf(locale, en);
}

/**
 * The words of `lang` (a BCP 47 tag), or without it of the page (`<html lang>`, else the
 * browser's languages; where there is no document, only the latter), over `en`, once its locale
 * has loaded; in English when it fails to.
 */
export async function messagesIn<Words extends Partial<WidgetMessages>>(lang: string | undefined, en: Words): Promise<Words> {
  const locale = localeOf(lang || (typeof document == 'object' ? documentProperty('documentElement').getAttribute('lang') : undefined));
  await load(locale);
  return wordsOf(locale, en);
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
