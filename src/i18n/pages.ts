/*
 * The words of the pages the server renders (the popup's start page and code confirmation, the
 * desktop callback page), in the language the browser asks for with `Accept-Language`. Server
 * side only: every locale is bundled, nothing is loaded.
 */
import type { Locale, PageMessages } from './catalogue.js';
import { matchLocale } from './match.js';
import { pages as de } from './locales/de.js';
import { pages as en } from './locales/en.js';
import { pages as es } from './locales/es.js';
import { pages as fr } from './locales/fr.js';
import { pages as it } from './locales/it.js';
import { pages as ja } from './locales/ja.js';
import { pages as ko } from './locales/ko.js';
import { pages as pl } from './locales/pl.js';
import { pages as ptBR } from './locales/pt-BR.js';
import { pages as ru } from './locales/ru.js';
import { pages as tr } from './locales/tr.js';
import { pages as zhCN } from './locales/zh-CN.js';

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

/** The locale and words for a request's `Accept-Language` header (English when none matches). */
export function pageWords(acceptLanguage: string | null | undefined): { locale: Locale; words: PageMessages } {
  const locale = (matchLocale(acceptedLanguages(acceptLanguage), Object.keys(PAGES)) ?? 'en') as Locale;
  return { locale, words: { ...en, ...PAGES[locale] } };
}
