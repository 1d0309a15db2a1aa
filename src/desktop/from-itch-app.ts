import { ItchOAuthError } from '../core/errors.js';
import { createItchClient } from '../server/itch-api/client.js';
import type { ItchClient } from '../server/itch-api/client-types.js';
import { isRefusedByItch, ItchApiError } from '../server/itch-api/errors.js';
import { parseItchDate, type User } from '../server/itch-api/login-schemas.js';

/** Options of {@link fromItchApp}. */
export interface FromItchAppOptions {
  /** Where itch.io lives (the site). Default `https://itch.io`. */
  baseUrl?: string | undefined;
  /** Where the key is checked (credentials/info, profile). Default `https://api.itch.io`. */
  apiBaseUrl?: string | undefined;
  /** The environment the itch app launched the game with. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Stops the check: the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** What {@link fromItchApp} resolves to for a game the itch app launched. */
export interface ItchAppLogin {
  /**
   * The key the app made for this game and session (a JWT), for `Authorization: Bearer …` on
   * `https://api.itch.io` (within its scopes). Keep it in memory: it expires.
   */
  accessToken: string;
  /** Its scopes, as credentials/info answered them (the manifest's `scope`, e.g. `profile:me`). */
  scopes: string[];
  /** When it stops working, as itch.io says. */
  expiresAt: Date;
  /** The player, from `/profile`. */
  user: User;
}

/** The environment variable the itch app puts the key in. */
export const ITCH_APP_KEY_VARIABLE = 'ITCHIO_API_KEY';
/** The environment variable the itch app puts the key's expiry in (ISO 8601). */
export const ITCH_APP_EXPIRY_VARIABLE = 'ITCHIO_API_KEY_EXPIRES_AT';

const KEY_CHARS = /^[!-~]{1,4096}$/;

/**
 * The player of a game launched by the itch app, with no browser at all. When a game's
 * `.itch.toml` manifest action asks for `scope = "profile:me"`, the app makes a key for this game
 * and session (a JWT) and passes it in `ITCHIO_API_KEY`, its expiry in `ITCHIO_API_KEY_EXPIRES_AT`.
 * This reads them, checks the key with itch.io (`credentials/info`: a `jwt`, not expired; then
 * `/profile`), and resolves to the key, its scopes, its expiry and the player.
 *
 * Resolves to `undefined` when the game was not launched by the itch app (no `ITCHIO_API_KEY`, as
 * also when the app was offline: `ITCHIO_OFFLINE_MODE=1`): log in another way then, e.g.
 * `loginWithLoopback`.
 *
 * @example
 * ```ts
 * const login = await fromItchApp().catch(() => undefined) // a refused key: log in another way
 *   ?? await loginWithLoopback({ clientId, redirectUri, readKey }); // falls back to out-of-band
 * ```
 * @throws ItchOAuthError `backend_rejected` for a key itch.io refuses (forged, revoked), one that
 *   has expired (relaunch the game from the app), or one that is not a JWT; `network_error` when
 *   itch.io cannot be reached; `invalid_response` for an answer that cannot be read;
 *   `config_invalid` for a bad `baseUrl`/`apiBaseUrl`. The message never contains the key.
 * @see https://itch.io/docs/itch/integrating/manifest-actions.html
 * @see https://itch.io/docs/api/serverside
 */
export async function fromItchApp(options: FromItchAppOptions = {}): Promise<ItchAppLogin | undefined> {
  const env = options.env ?? process.env;
  const key = env[ITCH_APP_KEY_VARIABLE]?.trim();
  if (!key) return undefined;
  if (!KEY_CHARS.test(key)) throw new ItchOAuthError('backend_rejected', `${ITCH_APP_KEY_VARIABLE} does not hold an itch.io key`);
  const announced = env[ITCH_APP_EXPIRY_VARIABLE]?.trim();
  const announcedExpiry = announced ? parseItchDate(announced) : undefined;
  if (announcedExpiry !== undefined && announcedExpiry.getTime() <= Date.now()) throw expired(announcedExpiry);

  let client: ItchClient;
  try {
    client = createItchClient({ baseUrl: options.baseUrl, apiBaseUrl: options.apiBaseUrl, credential: { type: 'jwt', token: key } });
  } catch (error) {
    throw new ItchOAuthError('config_invalid', (error as Error).message, { cause: error });
  }
  try {
    const info = await client.credentialsInfo({ signal: options.signal });
    if (info.type !== undefined && info.type !== 'jwt') {
      throw new ItchOAuthError(
        'backend_rejected',
        `${ITCH_APP_KEY_VARIABLE} holds an itch.io key of type "${info.type}", not the JWT the itch app makes for a game`,
      );
    }
    if (info.expires_at === undefined)
      throw new ItchOAuthError(
        'backend_rejected',
        `itch.io says the key in ${ITCH_APP_KEY_VARIABLE} has no expiry: it is not one the itch app made`,
      );
    if (info.expires_at.getTime() <= Date.now()) throw expired(info.expires_at);
    const user = await client.profile({ signal: options.signal });
    return { accessToken: key, scopes: [...info.scopes], expiresAt: info.expires_at, user };
  } catch (error) {
    throw refusal(error, options.signal);
  }
}

function expired(at: Date): ItchOAuthError {
  return new ItchOAuthError(
    'backend_rejected',
    `the key the itch app passed expired at ${at.toISOString()}: launch the game again from the itch app`,
  );
}

/** An itch.io failure as the desktop logins report it. */
function refusal(error: unknown, signal: AbortSignal | undefined): unknown {
  if (error instanceof ItchOAuthError) return error;
  if (!(error instanceof ItchApiError)) return error;
  if (error.code === 'aborted') return signal?.reason ?? error;
  if (isRefusedByItch(error)) {
    const why = error.errors.some((message) => /expired/i.test(message))
      ? 'the key the itch app passed has expired: launch the game again from the itch app'
      : `itch.io refused the key in ${ITCH_APP_KEY_VARIABLE} (${error.errors.join('; ')})`;
    return new ItchOAuthError('backend_rejected', why, { cause: error });
  }
  if (error.code === 'invalid_response') return new ItchOAuthError('invalid_response', error.message, { cause: error });
  return new ItchOAuthError('network_error', `could not check the itch app's key with itch.io: ${error.message}`, { cause: error });
}
