/*
 * The English sentences playerMessage() starts from, in dist/itch-oauth-button.iife.js: loaded
 * from locales/en.js beside the file as any other language is, so that the button's file does not
 * carry the callback page's words (vite.config.ts puts this file in place of player-words.ts).
 */
import { loadLocale } from './load-locale.js';

/** The callback page's English words (none when locales/ is not served beside the file). */
export const englishWords = () => loadLocale('en');
