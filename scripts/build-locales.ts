// Writes dist/locales/<locale>.js, the languages other than English for the script-tag files (which
// carry English built in: there is no en.js), each a classic script that hands the locale's element
// words to the <script> element running it (src/i18n/load-locale-script.ts reads them there). Run
// after `vite build --mode script-tag`.
// The element is asked of Document.prototype's getter: `document.currentScript` is shadowed by an
// element of the page named `currentScript` (HTML, "named properties" of Document).
import { mkdirSync, writeFileSync } from 'node:fs';
import { LOCALES } from '../src/i18n/catalogue.js';

mkdirSync('dist/locales', { recursive: true });
for (const locale of LOCALES.filter((locale) => locale != 'en')) {
  const { widget } = (await import(`../src/i18n/locales/${locale}.ts`)) as { widget: Record<string, string> };
  writeFileSync(
    `dist/locales/${locale}.js`,
    `Object.getOwnPropertyDescriptor(Document.prototype,"currentScript").get.call(document).m=${JSON.stringify(widget)};\n`,
  );
}
