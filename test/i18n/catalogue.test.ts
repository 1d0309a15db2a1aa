// Every locale's catalogue against English's: the same keys, the same placeholders, no empty
// message, "itch.io" left as it is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCALES } from '../../src/i18n/catalogue.js';

type Catalogue = { widget: Record<string, string>; pages: Record<string, string>; desktop: Record<string, string> };
// (Each part is its own file, src/i18n/{locales,pages,desktop}/<locale>.ts, so that no bundle carries words it never shows.)
const load = async (locale: string): Promise<Catalogue> => ({
  ...(await import(`../../src/i18n/locales/${locale}.ts`)),
  ...(await import(`../../src/i18n/pages/${locale}.ts`)),
  ...(await import(`../../src/i18n/desktop/${locale}.ts`)),
});
const placeholders = (message: string) => [...new Set(message.match(/\{\w+\}/g) ?? [])].sort();

describe('message catalogues', async () => {
  const en = await load('en');
  for (const locale of LOCALES) {
    const catalogue = await load(locale);
    for (const part of ['widget', 'pages', 'desktop'] as const) {
      it(`${locale} ${part}: the keys of English, no more, no fewer`, () => {
        assert.deepEqual(Object.keys(catalogue[part]).sort(), Object.keys(en[part]).sort());
      });
      it(`${locale} ${part}: each message has English's placeholders, is not empty, and keeps "itch.io"`, () => {
        for (const [key, english] of Object.entries(en[part])) {
          const message = catalogue[part][key] ?? '';
          assert.notEqual(message.trim(), '', `${locale} ${part}.${key} is empty`);
          assert.deepEqual(placeholders(message), placeholders(english), `${locale} ${part}.${key}: placeholders`);
          if (english.includes('itch.io')) assert.ok(message.includes('itch.io'), `${locale} ${part}.${key} lost "itch.io"`);
        }
      });
    }
  }
});
