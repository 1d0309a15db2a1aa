/*
 * The English sentences playerMessage() starts from: built in. (The button-only script file, which
 * carries no callback page, loads them from locales/en.js instead: see player-words-script.ts.)
 */
import type { WidgetMessages } from './catalogue.js';
import { callback } from './locales/en.js';

/** The callback page's English words. */
export const englishWords = (): Promise<Partial<WidgetMessages>> => Promise.resolve(callback);
