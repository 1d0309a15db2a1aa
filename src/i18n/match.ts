/*
 * Which of the available locales to use for a list of preferred ones (a `lang` attribute,
 * `navigator.languages`, or an `Accept-Language` header's tags by quality). BCP 47 lookup
 * (https://www.rfc-editor.org/rfc/rfc4647#section-3.4) by language: the package has one
 * locale per language, so `de-AT` and `de-CH` get `de`, `pt-PT` gets `pt-BR` (closer for a
 * Portuguese reader than English), `zh`, `zh-Hans` and `zh-SG` get `zh-CN`; Traditional Chinese
 * (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`) is not served Simplified: the next preference is tried.
 * An exact tag match comes first, in any case (a site may add `pt-PT` itself).
 */

/** The first of `available` that `preferred` (best first) accepts, else `undefined`. */
export function matchLocale(preferred: readonly (string | null | undefined)[], available: readonly string[]): string | undefined {
  for (const tag of preferred) {
    const wanted = `${tag}`.toLowerCase();
    const [language] = wanted.split('-');
    const found =
      available.find((locale) => locale.toLowerCase() == wanted) ??
      // (Simplified Chinese is `zh-CN`: a Traditional reader, `zh-Hant…`, `zh-TW`, `zh-HK`, `zh-MO`, is not given it.)
      (/^zh-(hant|tw|hk|mo)\b/.test(wanted) ? undefined : available.find((locale) => locale.split('-')[0]!.toLowerCase() == language));
    if (found) return found;
  }
  return undefined;
}
