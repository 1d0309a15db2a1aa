import { satisfies } from '../../core/scopes.js';
import { createLoginClient, type LoginClient } from '../itch-api/login-client.js';
import { placeCredential } from '../itch-api/credential.js';
import { failureInWords, isRefusedByItch, ItchApiError } from '../itch-api/errors.js';
import type { FetchFunction } from '../itch-api/request.js';
import type { User } from '../itch-api/login-schemas.js';
import type { Refusal } from '../http/answers.js';
import { ItchCeilingReached } from '../rate-limit/limiter.js';

import type { Owns } from '../../core/wire-types.js';

export type { Owns };

/**
 * The token handler's `ownership` option: after the token is verified, which of these games does
 * the user own?
 *
 * - With `apiKey` (your own itch.io API key, a server-side secret), by
 *   `GET /games/ID/download_keys?user_id=USER_ID`: a download key exists for a purchase, a
 *   claimed key and a bundle purchase alike (`/purchases` misses the last two), and the user id
 *   comes from the verified token, so it cannot be spoofed. Works for every game the key's owner
 *   may edit.
 * - Without it, by the player's own token on `GET /games/ID/ownership`: the token must carry
 *   `game:view:ownership` (add it to the login button's `scope`), and itch.io answers only for
 *   games of the OAuth application's creator.
 *
 * @see https://itch.io/docs/api/serverside
 * @see https://itch.io/docs/api/oauth
 * @group Token endpoint
 */
export interface OwnershipOptions {
  /** The games to check, by itch.io game id (positive integers, at least one). */
  gameIds: readonly number[];
  /**
   * Your itch.io API key (from your account's API keys page), for the `download_keys` check.
   * Never sent to a browser, never logged, never in an error message.
   */
  apiKey?: string | undefined;
  /** Refuse (403, code `not_owner`) a user who owns none of `gameIds`. Default `false`. */
  require?: boolean | undefined;
}

/**
 * The scope a token needs for the ownership check without `apiKey`.
 * @group Token endpoint
 */
export const OWNERSHIP_SCOPE = 'game:view:ownership';

/** What itch.io answers download_keys with when the user has neither bought nor claimed the game (https://itch.io/docs/api/serverside, download_keys). */
const NO_DOWNLOAD_KEY = 'no download key found';

/** How the handler reaches itch.io (its own settings). */
export interface OwnershipContext {
  baseUrl: string;
  apiBaseUrl: string;
  fetch: FetchFunction | undefined;
  timeoutMs: number;
}

/** The `ownership` option, checked. */
export interface OwnershipSettings {
  gameIds: number[];
  apiKey: string | undefined;
  require: boolean;
}

/** A verified login, as the ownership check needs it. */
export interface VerifiedLogin {
  token: string;
  user: User;
  scopes: readonly string[];
}

/** Checks one login: the games it owns, or why it is refused. Never throws for itch.io's failures. */
export type OwnershipCheck = (login: VerifiedLogin) => Promise<{ owns: Owns } | { refusal: Refusal }>;

const OPTION_NAMES = ['gameIds', 'apiKey', 'require'];

/**
 * Checks the `ownership` option, at the handler's creation.
 * @throws TypeError naming the option (`ownership.gameIds`, `ownership.apiKey`, …) when it is
 *   malformed; the message never shows the API key.
 */
export function readOwnershipOption(options: OwnershipOptions): OwnershipSettings {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError('ownership must be an object { gameIds, apiKey?, require? }');
  }
  const unknown = Object.keys(options).filter((name) => !OPTION_NAMES.includes(name));
  if (unknown.length > 0) throw new TypeError(`ownership has no option ${unknown.join(', ')} (it takes gameIds, apiKey, require)`);
  const gameIds = assertGameIds(options.gameIds);
  const required = options.require ?? false;
  if (typeof required !== 'boolean') throw new TypeError('ownership.require must be a boolean');
  return { gameIds, apiKey: options.apiKey === undefined ? undefined : assertApiKey(options.apiKey), require: required };
}

/**
 * The check the handler runs once per login (nothing is cached: each login asks itch.io again,
 * for its own user). The games are checked in parallel, each call within the handler's
 * `timeoutMs`; the first failure stops the others.
 *
 * Refusals: a token without `game:view:ownership` when there is no `apiKey` (403, a configuration
 * error that says so); itch.io failing or refusing the check (502: never taken as "owned" nor as
 * "not owned"); with `require`, a user who owns none of the games (403, code `not_owner`).
 */
export function createOwnershipCheck(settings: OwnershipSettings, context: OwnershipContext): OwnershipCheck {
  const { gameIds, require: required } = settings;
  const developer =
    settings.apiKey === undefined ? undefined : createLoginClient({ ...context, credential: { type: 'api-key', key: settings.apiKey } });

  return async ({ token, user, scopes }) => {
    if (developer === undefined && !satisfies(scopes, OWNERSHIP_SCOPE)) {
      return {
        refusal: {
          status: 403,
          message:
            `the access token lacks the scope ${OWNERSHIP_SCOPE}, which the ownership check needs without ownership.apiKey: ` +
            `ask for it in the login button's scope (scope="profile:me ${OWNERSHIP_SCOPE}"), or give ownership.apiKey`,
        },
      };
    }
    const itch = developer ?? createLoginClient({ ...context, credential: { type: 'oauth', accessToken: token } });
    const stop = new AbortController();
    let results: boolean[];
    try {
      results = await Promise.all(
        gameIds.map((gameId) =>
          ownsGame(itch, gameId, user.id, developer !== undefined, stop.signal).catch((error: unknown) => {
            stop.abort();
            throw error;
          }),
        ),
      );
    } catch (error) {
      return { refusal: failedCheck(error, developer !== undefined) };
    }
    const owns: Record<number, boolean> = {};
    gameIds.forEach((gameId, i) => (owns[gameId] = results[i]!));
    if (required && !results.includes(true)) {
      const games = gameIds.length === 1 ? `game ${gameIds[0]}` : `any of the games ${gameIds.join(', ')}`;
      return { refusal: { status: 403, message: `this login requires owning ${games} on itch.io`, code: 'not_owner' } };
    }
    return { owns };
  };
}

/** One game: owned (true), not owned (false), or an `ItchApiError` when itch.io cannot say. */
async function ownsGame(itch: LoginClient, gameId: number, userId: number, byApiKey: boolean, signal: AbortSignal): Promise<boolean> {
  if (!byApiKey) return (await itch.gameOwnership(gameId, { signal })).owns;
  try {
    // itch.io answers with the key it found; it counts only when it is this game's key and this
    // player's (a key bought without an account, or any other answer, is not ownership).
    const key = await itch.gameDownloadKeys(gameId, { userId }, { signal });
    return key.game_id === gameId && key.owner?.id === userId;
  } catch (error) {
    if (error instanceof ItchApiError && error.code === 'api_error' && error.errors.includes(NO_DOWNLOAD_KEY)) return false;
    throw error;
  }
}

/** itch.io did not answer the check: 502, with a message that helps the developer (never the key). */
function failedCheck(error: unknown, byApiKey: boolean): Refusal {
  if (!(error instanceof ItchApiError)) throw error;
  if (error.cause instanceof ItchCeilingReached) return { status: 503, message: error.cause.message, code: 'service_unavailable' };
  const game = /\/games\/(\d+)\//.exec(error.endpoint)?.[1] ?? '?';
  if (isRefusedByItch(error)) {
    const hint =
      error.status === 404
        ? 'check ownership.gameIds'
        : error.status === 401
          ? byApiKey
            ? 'ownership.apiKey is not a live itch.io API key (revoked?)'
            : 'the access token stopped working during the login'
          : byApiKey
            ? "ownership.apiKey must be an API key of the game's developer or of an editor of the game"
            : "with the player's token, itch.io answers only for games of the OAuth application's creator: give ownership.apiKey for others";
    return {
      status: 502,
      message: `itch.io refused the ownership check of game ${game} (HTTP ${error.status}: ${error.errors.join('; ')}): ${hint}`,
    };
  }
  return { status: 502, message: `itch.io could not check ownership of game ${game} (${failureInWords(error)}): try again later` };
}

function assertGameIds(value: unknown): number[] {
  if (!Array.isArray(value)) {
    throw new TypeError(`ownership.gameIds must be an array of itch.io game ids, got ${value === null ? 'null' : typeof value}`);
  }
  if (value.length === 0) throw new TypeError('ownership.gameIds must list at least one itch.io game id');
  value.forEach((id: unknown, i) => {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
      throw new TypeError(`ownership.gameIds[${i}] must be a positive integer game id, got ${typeof id === 'number' ? id : typeof id}`);
    }
  });
  return [...new Set(value as number[])];
}

/** The developer's API key, checked (the message names the option, never the key). */
function assertApiKey(apiKey: unknown): string {
  try {
    placeCredential({ type: 'api-key', key: apiKey as string });
  } catch (error) {
    // Without the cause: its message names `credential.key`, which this one renames for the caller.
    // eslint-disable-next-line preserve-caught-error
    throw new TypeError((error as Error).message.replace('credential.key', 'ownership.apiKey'));
  }
  return apiKey as string;
}
