/*
 * The player's sentence for an error code, for games and apps that draw their own interface (a
 * canvas, an engine): the words the callback page shows, in the player's language.
 */
import { isErrorCode, type ItchOAuthErrorCode } from '../core/errors.js';
import { problems } from './locales/en.js';
import { messagesIn } from './messages.js';

/**
 * What to tell the player after a login failed with `code`, in `lang` (a BCP 47 tag such as
 * `'de'` or `'pt-BR'`) or, without it, in the page's language (`<html lang>`, else the
 * browser's); English when the language is not shipped or its file cannot load. Messages set
 * with `setMessages` count. English is built into every build (the script-tag files included):
 * it needs no network, no DOM and no `navigator`, so it also answers in Node, Deno, Bun and
 * workerd. Another language loads as the elements load it (from `locales/` beside a script-tag
 * file).
 *
 * @example
 * login(options).catch(async (error) => game.showText(await playerMessage(error.code)));
 * @throws TypeError (as a rejection) when `code` is not one of `ERROR_CODES`.
 * @group Words
 */
export async function playerMessage(code: ItchOAuthErrorCode, lang?: string): Promise<string> {
  if (!isErrorCode(code)) throw TypeError(`playerMessage: ${JSON.stringify(code)} is not an error code`);
  return (await messagesIn(lang, problems))[code];
}
