/*
 * Which of the available locales to use for a list of preferred ones (a `lang` attribute,
 * `navigator.languages`, or an `Accept-Language` header's tags by quality). BCP 47 lookup
 * (https://www.rfc-editor.org/rfc/rfc4647#section-3.4) by language: the package has one
 * locale per language, so `de-AT` and `de-CH` get `de`, `pt-PT` gets `pt-BR` (closer for a
 * Portuguese reader than English), `zh`, `zh-Hans` and `zh-SG` get `zh-CN`; Traditional Chinese
 * (`zh-Hant`, `zh-TW`, `zh-HK`: their likely script, by `Intl.Locale#maximize`) is not served
 * Simplified: the next preference is tried. An exact tag match comes first (a site may register
 * `pt-PT` itself).
 */

/** The first of `available` (canonical tags) that `preferred` (best first) accepts, else `undefined`. */
export function matchLocale(preferred: readonly string[], available: readonly string[]): string | undefined {
  for (const tag of preferred) {
    try {
      // (`baseName`: the tag in canonical case, `pt-pt` → `pt-PT`, without extensions.)
      const wanted = new Intl.Locale(tag);
      const exact = available.find((locale) => locale == wanted.baseName);
      if (exact) return exact;
      const { language, script } = wanted.maximize();
      // (Simplified Chinese is `zh-CN`: a Traditional reader is not given it.)
      if (language == 'zh' && script != 'Hans') continue;
      const same = available.find((locale) => locale.split('-')[0] == language);
      if (same) return same;
    } catch {
      // Not a language tag (`*`, empty, malformed): the next one.
    }
  }
  return undefined;
}
