/*
 * messages.ts as the full script-tag file (dist/itch-oauth.iife.js) has it for now: English, and
 * what the site sets for English with `setMessages('en', …)` or an element's `messages`, with no
 * choice of locale and nothing loaded. That file carries the capture and both elements within a
 * 14 KiB budget, and the locale machinery does not fit in it yet; the button-only file, the npm
 * build and the server's pages speak all twelve languages (docs/guides/languages.md).
 * (vite.config.ts puts this file in place of messages.ts for that build.)
 */
import type { WidgetMessages } from './catalogue.js';

const overrides: Partial<WidgetMessages> = {};
const watchers = new Set<() => void>();

/** As messages.ts's; only English's messages are used here. */
export function setMessages(locale: string, messages: Partial<WidgetMessages>): void {
  if (locale == 'en') Object.assign(overrides, messages);
  watchers.forEach((update) => update());
}

/** The English words over `en` (the caller's part of the catalogue). */
export function messagesFor<Words extends Partial<WidgetMessages>>(_node: Element, en: Words): Words {
  return { ...en, ...overrides } as Words;
}

/** Calls `update` after `setMessages`. Returns the way to stop. */
export function watch(update: () => void): () => void {
  watchers.add(update);
  return () => watchers.delete(update);
}
