import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { HtmlTagDescriptor, Plugin } from 'vite';

export interface ItchOAuthCaptureOptions {
  /** The callback page or pages, as served, e.g. `/callback.html`. */
  callback: string | readonly string[];
  /** URL the token is POSTed to (the capture's `data-backend`). */
  backend: string;
  /** Stay on the callback page after success (the capture's `data-no-redirect`). */
  noRedirect?: boolean;
  /** Text of the capture's view while the token is delivered (`data-pending`). Default "Signing you in…". */
  pending?: string;
  /**
   * `color-scheme` of that view, e.g. `'light dark'`: a `<meta name="color-scheme">` goes right
   * before the capture (nothing after the capture is parsed while the view shows).
   */
  colorScheme?: string;
  /**
   * CSS for that view (the capture writes it as an `<output>`), e.g.
   * `'output { font: 1.25rem system-ui; display: block; margin: 4rem auto; text-align: center }'`:
   * a `<style>` goes right before the capture. It adds nothing to the capture; under a CSP, allow it
   * in `style-src` (its hash is `plugin.api.styleHash`).
   */
  pendingStyle?: string;
  /** The capture script's text. Default: the package's `dist/itch-oauth-capture.iife.js`. */
  captureSource?: string;
}

/** The plugin, with the CSP hash of the inlined capture for your `script-src`. */
export type ItchOAuthCapturePlugin = Plugin & { api: { cspHash: string; styleHash?: string | undefined } };

/** The CSP source expression (`'sha256-…'`) that allows an inline script with this exact text. */
export function cspHash(scriptText: string): string {
  return `'sha256-${createHash('sha256').update(scriptText, 'utf8').digest('base64')}'`;
}

function defaultCaptureSource(): string {
  // Beside this file in dist/; from src/ (the package's own demo and tests), in ../../dist/.
  for (const path of ['./itch-oauth-capture.iife.js', '../../dist/itch-oauth-capture.iife.js']) {
    try {
      return readFileSync(new URL(path, import.meta.url), 'utf8').trim();
    } catch {
      // Try the next place.
    }
  }
  throw new Error('itch-oauth-widget/vite: dist/itch-oauth-capture.iife.js not found; build the package or pass captureSource');
}

/**
 * Puts the capture first in `<head>` of the callback page, inline (no extra request before it),
 * in dev and in the build. Runs after every other plugin's HTML transform and prepends, so no
 * script can come before it. `plugin.api.cspHash` is the hash to allow it in a strict CSP.
 */
export function itchOAuthCapture(options: ItchOAuthCaptureOptions): ItchOAuthCapturePlugin {
  const pages = new Set([options.callback].flat().map((page) => `/${page.replace(/^\//, '')}`));
  const source = options.captureSource ?? defaultCaptureSource();
  const attrs: Record<string, string | boolean> = { 'data-backend': options.backend, 'data-no-redirect': options.noRedirect === true };
  // An absolute https backend is the app's own configuration: another origin is what it asked for.
  if (/^https:\/\//.test(options.backend)) attrs['data-cross-origin'] = true;
  if (options.pending !== undefined) attrs['data-pending'] = options.pending;
  const tags: HtmlTagDescriptor[] = [{ tag: 'script', attrs, children: source, injectTo: 'head-prepend' }];
  if (options.pendingStyle !== undefined) tags.unshift({ tag: 'style', children: options.pendingStyle, injectTo: 'head-prepend' });
  if (options.colorScheme !== undefined)
    tags.unshift({ tag: 'meta', attrs: { name: 'color-scheme', content: options.colorScheme }, injectTo: 'head-prepend' });
  return {
    name: 'itch-oauth-capture',
    api: { cspHash: cspHash(source), styleHash: options.pendingStyle === undefined ? undefined : cspHash(options.pendingStyle) },
    transformIndexHtml: {
      order: 'post',
      handler: (_html, context) => (pages.has(context.path) ? tags : []),
    },
  };
}
