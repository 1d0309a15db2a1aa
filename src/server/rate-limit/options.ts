/*
 * The `rateLimit` option: the numbers of the limits, their defaults and why, checked once.
 */

/**
 * The token handler's `rateLimit` option as numbers; each left out keeps its default. The
 * per-client ones count the requests of one client address (see `clientAddress`) in a minute;
 * over one, the handler answers 429 with `Retry-After` (the seconds until that minute ends),
 * calls no one and stores nothing, and the browser reports `service_unavailable`.
 *
 * The defaults are set so that 30 players behind one shared address (a school, a café) who all
 * log in within the same minute never meet them, retries included.
 * @group Token endpoint
 */
export interface RateLimitOptions {
  /**
   * Tokens handed to the handler to check with itch.io, per client per minute: redirect-mode
   * logins and popup deposits. Default 120: 30 players whose logins are each tried four times
   * (the capture's retries).
   */
  tokens?: number | undefined;
  /**
   * Of those, the ones itch.io has not accepted, per client per minute: refused, or still being
   * checked (a check that itch.io accepts, or that itch.io cannot answer, is given back). This is
   * the limit a flood of made-up tokens meets. Default 30: 30 players who all click in the same
   * second; an honest player's token is refused only when it has expired.
   */
  unverifiedTokens?: number | undefined;
  /**
   * Popup start pages and bindings, per client per minute. Default 240: 30 players who each open
   * the popup four times (a start page and a binding each).
   */
  popupStarts?: number | undefined;
  /**
   * Popup collections, per client per minute. The opener asks about once a second while its
   * player is on itch.io, and three times a second after the popup closed. Default 3,000: 30
   * players in their popups at once (1,800 a minute), with room.
   */
  popupCollections?: number | undefined;
  /**
   * Calls to itch.io per second, every client together (every instance together with a shared
   * `store`). Over it, a login gets 503 with `Retry-After: 1` (`service_unavailable`). itch.io
   * publishes no limit; it throttles a caller that asks too much, and then no player of the site
   * can log in, so the site asks no more than it chose. Default 20: a login costs two calls (three
   * or more with `ownership`), so 10 logins a second, 36,000 an hour, far more than a game's site
   * sees at its launch; yet a flood of made-up tokens from many addresses costs itch.io no more.
   */
  itchCallsPerSecond?: number | undefined;
}

/** The limits, every one a number. */
export type RateLimits = { [Name in keyof RateLimitOptions]-?: number };

/**
 * The rate limits when `rateLimit` does not change them (see {@link RateLimitOptions} for why each).
 * @group Token endpoint
 */
export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = {
  tokens: 120,
  unverifiedTokens: 30,
  popupStarts: 240,
  popupCollections: 3000,
  itchCallsPerSecond: 20,
};

/**
 * `rateLimit` with its defaults: `undefined` or `true` the defaults, `false` no limits at all.
 * @throws TypeError naming what is malformed.
 */
export function readRateLimit(value: unknown): RateLimits | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return { ...DEFAULT_RATE_LIMITS };
  if (typeof value !== 'object' || value === null)
    throw new TypeError(
      'rateLimit must be false, or an object of numbers { tokens?, unverifiedTokens?, popupStarts?, popupCollections?, itchCallsPerSecond? }',
    );
  const names = Object.keys(DEFAULT_RATE_LIMITS);
  const unknown = Object.keys(value).filter((key) => !names.includes(key));
  if (unknown.length > 0) throw new TypeError(`rateLimit has no limit ${unknown.join(', ')} (it takes ${names.join(', ')})`);
  const limits = { ...DEFAULT_RATE_LIMITS };
  for (const [name, number] of Object.entries(value) as [keyof RateLimits, unknown][]) {
    if (number === undefined) continue;
    if (typeof number !== 'number' || !(number >= 1) || !(Number.isSafeInteger(number) || number === Infinity))
      throw new TypeError(`rateLimit.${name} must be a positive integer (or Infinity: no limit)`);
    limits[name] = number;
  }
  return limits;
}
