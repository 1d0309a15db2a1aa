/*
 * The words of the popup's pages the server renders (its start page and code confirmation, the
 * unavailable page), in the language the browser asks for with `Accept-Language`. Server side
 * only: every locale is bundled, nothing is loaded. (The desktop callback page's words are apart,
 * in desktop-pages.ts, so that a Worker does not carry them.)
 */
import type { Locale, PageMessages } from './catalogue.js';
import { matchLocale } from './match.js';
import { pages as de } from './pages/de.js';
import { pages as en } from './pages/en.js';
import { pages as es } from './pages/es.js';
import { pages as fr } from './pages/fr.js';
import { pages as it } from './pages/it.js';
import { pages as ja } from './pages/ja.js';
import { pages as ko } from './pages/ko.js';
import { pages as pl } from './pages/pl.js';
import { pages as ptBR } from './pages/pt-BR.js';
import { pages as ru } from './pages/ru.js';
import { pages as tr } from './pages/tr.js';
import { pages as zhCN } from './pages/zh-CN.js';

const PAGES: Record<Locale, PageMessages> = { en, es, 'pt-BR': ptBR, fr, de, it, pl, ru, tr, ja, ko, 'zh-CN': zhCN };

/** At most this many languages of a header are considered (a browser sends a handful). */
const MAX_LANGUAGES = 20;

/**
 * The language tags of an `Accept-Language` header, best first: by quality (`q`, default 1;
 * `q=0` means "not this one"), then in the header's order.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-12.5.4
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  return (header ?? '')
    .split(',', MAX_LANGUAGES)
    .map((range) => {
      const [tag = '', ...parameters] = range.split(';').map((part) => part.trim());
      const q = parameters.find((parameter) => /^q=/i.test(parameter));
      return { tag, q: q === undefined ? 1 : Number(q.slice(2)) };
    })
    .filter(({ tag, q }) => tag !== '' && q > 0)
    .sort((a, b) => b.q - a.q)
    .map(({ tag }) => tag);
}

/** The locale for a request's `Accept-Language` header among `available` (English when none matches). */
export function pageLocale(acceptLanguage: string | null | undefined, available: readonly string[]): Locale {
  return (matchLocale(acceptedLanguages(acceptLanguage), available) ?? 'en') as Locale;
}

/** The locale and words for a request's `Accept-Language` header (English when none matches). */
export function pageWords(acceptLanguage: string | null | undefined): { locale: Locale; words: PageMessages } {
  const locale = pageLocale(acceptLanguage, Object.keys(PAGES));
  return { locale, words: { ...en, ...PAGES[locale] } };
}
