import { createHash } from 'node:crypto';

/** The CSP source expression (`'sha256-…'`) that allows an inline script with this exact text. */
export function cspHash(scriptText: string): string {
  return `'sha256-${createHash('sha256').update(scriptText, 'utf8').digest('base64')}'`;
}

/** A `<script>` element without `src` and its text, as an HTML serializer writes it (script text is raw text). */
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;

/** The texts of the inline scripts of an HTML document. */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map((match) => match[1]!);
}

/**
 * The hashes of the inline scripts Vite's dev server put into the page (e.g.
 * `@vitejs/plugin-react`'s preamble): those of `served` that `source`, the page's file, does not
 * have. The page's own inline scripts get nothing, so dev allows what preview and production allow.
 */
export function devInlineHashes(source: string, served: string): string[] {
  const own = new Set(inlineScripts(source));
  return [
    ...new Set(
      inlineScripts(served)
        .filter((text) => !own.has(text))
        .map(cspHash),
    ),
  ];
}

/**
 * `csp` with `hashes` added to its `script-src` and `script-src-elem` directives. A directive that
 * allows every inline script (`'unsafe-inline'` without a hash or nonce, which a hash would turn
 * off) is left as it is, and so is a policy without either directive.
 * @see https://www.w3.org/TR/CSP3/#allow-all-inline
 */
export function withScriptHashes(csp: string, hashes: readonly string[]): string {
  if (hashes.length === 0) return csp;
  return csp
    .split(';')
    .map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (name === undefined || !/^script-src(-elem)?$/i.test(name)) return directive;
      const lower = sources.map((source) => source.toLowerCase());
      const allowsAll = lower.includes("'unsafe-inline'") && !lower.some((source) => /^'(sha\d+|nonce)-/.test(source));
      if (allowsAll) return directive;
      const added = hashes.filter((hash) => !sources.includes(hash));
      return ` ${[name, ...sources, ...added].join(' ')}`;
    })
    .join(';')
    .trim();
}
