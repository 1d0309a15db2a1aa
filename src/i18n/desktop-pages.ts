/*
 * The words of the desktop login's callback page (src/desktop), in the language the browser asks
 * for with `Accept-Language`; apart from the popup's pages (pages.ts), which a Worker carries.
 */
import type { DesktopMessages, Locale } from './catalogue.js';
import { pageLocale } from './pages.js';
import { desktop as de } from './desktop/de.js';
import { desktop as en } from './desktop/en.js';
import { desktop as es } from './desktop/es.js';
import { desktop as fr } from './desktop/fr.js';
import { desktop as it } from './desktop/it.js';
import { desktop as ja } from './desktop/ja.js';
import { desktop as ko } from './desktop/ko.js';
import { desktop as pl } from './desktop/pl.js';
import { desktop as ptBR } from './desktop/pt-BR.js';
import { desktop as ru } from './desktop/ru.js';
import { desktop as tr } from './desktop/tr.js';
import { desktop as zhCN } from './desktop/zh-CN.js';

const DESKTOP: Record<Locale, DesktopMessages> = { en, es, 'pt-BR': ptBR, fr, de, it, pl, ru, tr, ja, ko, 'zh-CN': zhCN };

/** The locale and words for a request's `Accept-Language` header (English when none matches). */
export function desktopWords(acceptLanguage: string | null | undefined): { locale: Locale; words: DesktopMessages } {
  const locale = pageLocale(acceptLanguage, Object.keys(DESKTOP));
  return { locale, words: { ...en, ...DESKTOP[locale] } };
}
