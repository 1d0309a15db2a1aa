import type { z } from 'zod';
import { DEFAULT_BASE_URL } from '../core/authorize-url.js';
import { placeCredential, type EndpointTable, type ItchCredential } from './credential.js';
import { requestItchApi, type CallOptions, type FetchFunction } from './request.js';
import {
  credentialsInfoResponseSchema,
  downloadKeysResponseSchema,
  gameClaimedRewardsResponseSchema,
  gameOwnershipResponseSchema,
  meResponseSchema,
  myGamesResponseSchema,
  profileCollectionsResponseSchema,
  profileGamesResponseSchema,
  profileOwnedKeysResponseSchema,
  profileResponseSchema,
  purchasesResponseSchema,
  type ClaimedReward,
  type Collection,
  type CredentialInfo,
  type DownloadKey,
  type Game,
  type GameOwnershipResponse,
  type ProfileOwnedKeysResponse,
  type Purchase,
  type User,
} from './schemas.js';

/** Time limit of a call unless `timeoutMs` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface ItchClientOptions {
  /** The credential every call carries. */
  credential: ItchCredential;
  /** Where itch.io lives; may carry a path prefix. https, or http on a loopback host. Default `https://itch.io`. */
  baseUrl?: string | undefined;
  /** The `fetch` to send requests with. Default: the global one. */
  fetch?: FetchFunction | undefined;
  /** Default time limit of a call in milliseconds. Default 10 000. */
  timeoutMs?: number | undefined;
}

/** download_keys looks a key up by at least one of these. @see ../shared/spec/itch-api.md section 4A rule 2 */
export interface DownloadKeyLookup {
  /** The key string, e.g. the last path segment of a buyer's download URL. */
  downloadKey?: string | undefined;
  /** A user id that cannot be spoofed (e.g. from a JWT of the app manifest). */
  userId?: number | undefined;
  /** An e-mail address the caller has verified the user owns. */
  email?: string | undefined;
}

/** purchases looks purchases up by at least one of these. @see ../shared/spec/itch-api.md section 4A rule 4 */
export interface PurchaseLookup {
  /** An e-mail address; verify it is the user's before trusting the result (rule 7). */
  email?: string | undefined;
  userId?: number | undefined;
}

/**
 * A typed itch.io API client: a method per endpoint of spec tables A and B. Table A methods need
 * an `api-key`, `api-key-in-path` or `jwt` credential; table B methods an `oauth` one;
 * `credentialsInfo` takes any. Arguments are checked before any request (a `TypeError`);
 * answers are validated; failures are `ItchApiError`s.
 */
export interface ItchClient {
  /** Scopes (and for a JWT `expires_at`) of the client's credential. @see ../shared/spec/itch-api.md section 4A, 4B */
  credentialsInfo(options?: CallOptions): Promise<CredentialInfo>;
  /** The owner of the credential (table A `me`). */
  me(options?: CallOptions): Promise<User>;
  /** Games the caller uploaded or may edit (table A `my-games`). */
  myGames(options?: CallOptions): Promise<Game[]>;
  /** A download key of a game, from a purchase or a claim (table A `download_keys`). */
  downloadKeys(gameId: number, lookup: DownloadKeyLookup, options?: CallOptions): Promise<DownloadKey>;
  /** Completed purchases of a game (table A `purchases`); `[]` for a claimed key. */
  purchases(gameId: number, lookup: PurchaseLookup, options?: CallOptions): Promise<Purchase[]>;
  /** The user's public profile (table B, scope `profile:me`). */
  profile(options?: CallOptions): Promise<User>;
  /** Games the user is developing (table B, scope `profile:games`). */
  profileGames(options?: CallOptions): Promise<Game[]>;
  /** The user's collections (table B, scope `profile:collections`). */
  profileCollections(options?: CallOptions): Promise<Collection[]>;
  /** One page of the games the user purchased or claimed (table B, scope `profile:owned`). */
  profileOwnedKeys(query?: { page?: number | undefined }, options?: CallOptions): Promise<ProfileOwnedKeysResponse>;
  /** Whether the user owns a game of the OAuth application's creator (table B, scope `game:view:ownership`). */
  gameOwnership(gameId: number, options?: CallOptions): Promise<GameOwnershipResponse>;
  /** Rewards claimed for a game the user develops (table B, scope `game:view:rewards`). */
  gameClaimedRewards(gameId: number, options?: CallOptions): Promise<ClaimedReward[]>;
}

/**
 * Creates an itch.io API client for one credential.
 *
 * @example
 * const itch = createItchClient({ credential: { type: 'api-key', key: apiKey } });
 * const [purchase] = await itch.purchases(3, { email: 'leaf@example.com' });
 *
 * @throws TypeError for a bad credential, `baseUrl` or `timeoutMs` (never showing the secret).
 * @see ../shared/spec/itch-api.md sections 4 and 5
 */
export function createItchClient(options: ItchClientOptions): ItchClient {
  const placement = placeCredential(options.credential);
  const baseUrl = assertApiBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
  const clientTimeoutMs = assertTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const send: FetchFunction = options.fetch ?? ((input, init) => fetch(input, init));

  const call = <S extends z.ZodType>(
    method: string,
    table: EndpointTable | 'any',
    path: string,
    schema: S,
    callOptions: CallOptions | undefined,
    query: Record<string, string> = {},
  ): Promise<z.output<S>> => {
    if (table !== 'any' && table !== placement.table) {
      const needed = table === 'A' ? 'an "api-key", "api-key-in-path" or "jwt" credential' : 'an "oauth" credential';
      throw new TypeError(`${method}() is a table ${table} endpoint and needs ${needed}; this client has a "${placement.type}" one`);
    }
    const url = new URL(`${baseUrl}${placement.pathPrefix}${path}`);
    url.search = new URLSearchParams(query).toString();
    return requestItchApi({
      url,
      endpoint: `${placement.endpointPrefix}${path}`,
      authorization: placement.authorization,
      secret: placement.secret,
      schema,
      fetch: send,
      timeoutMs: callOptions?.timeoutMs === undefined ? clientTimeoutMs : assertTimeout(callOptions.timeoutMs, 'options.timeoutMs'),
      signal: callOptions?.signal,
    });
  };

  // Every method is async so that an argument error rejects its promise like any other failure.
  return {
    async credentialsInfo(callOptions) {
      return call('credentialsInfo', 'any', '/credentials/info', credentialsInfoResponseSchema, callOptions);
    },
    async me(callOptions) {
      return (await call('me', 'A', '/me', meResponseSchema, callOptions)).user;
    },
    async myGames(callOptions) {
      return (await call('myGames', 'A', '/my-games', myGamesResponseSchema, callOptions)).games;
    },
    async downloadKeys(gameId, lookup, callOptions) {
      const path = `/game/${assertId(gameId, 'gameId')}/download_keys`;
      const query = lookupQuery(lookup, 'downloadKeys', ['downloadKey', 'userId', 'email']);
      return (await call('downloadKeys', 'A', path, downloadKeysResponseSchema, callOptions, query)).download_key;
    },
    async purchases(gameId, lookup, callOptions) {
      const path = `/game/${assertId(gameId, 'gameId')}/purchases`;
      const query = lookupQuery(lookup, 'purchases', ['email', 'userId']);
      return (await call('purchases', 'A', path, purchasesResponseSchema, callOptions, query)).purchases;
    },
    async profile(callOptions) {
      return (await call('profile', 'B', '/profile', profileResponseSchema, callOptions)).user;
    },
    async profileGames(callOptions) {
      return (await call('profileGames', 'B', '/profile/games', profileGamesResponseSchema, callOptions)).games;
    },
    async profileCollections(callOptions) {
      return (await call('profileCollections', 'B', '/profile/collections', profileCollectionsResponseSchema, callOptions)).collections;
    },
    async profileOwnedKeys(query = {}, callOptions) {
      const params: Record<string, string> = query.page === undefined ? {} : { page: String(assertId(query.page, 'page')) };
      return call('profileOwnedKeys', 'B', '/profile/owned-keys', profileOwnedKeysResponseSchema, callOptions, params);
    },
    async gameOwnership(gameId, callOptions) {
      return call('gameOwnership', 'B', `/games/${assertId(gameId, 'gameId')}/ownership`, gameOwnershipResponseSchema, callOptions);
    },
    async gameClaimedRewards(gameId, callOptions) {
      const path = `/games/${assertId(gameId, 'gameId')}/claimed-rewards`;
      return (await call('gameClaimedRewards', 'B', path, gameClaimedRewardsResponseSchema, callOptions)).claimed_rewards;
    },
  };
}

const QUERY_NAMES = { downloadKey: 'download_key', userId: 'user_id', email: 'email' } as const;
type LookupField = keyof typeof QUERY_NAMES;

/**
 * Turns a lookup into query parameters, checking each given field and that at least one is.
 * @see ../shared/spec/itch-api.md section 4A rules 2 and 4
 */
function lookupQuery(lookup: DownloadKeyLookup | PurchaseLookup, method: string, fields: readonly LookupField[]): Record<string, string> {
  if (typeof lookup !== 'object' || lookup === null) throw new TypeError(`${method}() needs a lookup object`);
  const given = lookup as Partial<Record<LookupField, unknown>>;
  const query: Record<string, string> = {};
  for (const field of fields) {
    const value = given[field];
    if (value === undefined) continue;
    if (field === 'userId') query[QUERY_NAMES[field]] = String(assertId(value, 'userId'));
    else if (field === 'email') query[QUERY_NAMES[field]] = assertEmail(value);
    else query[QUERY_NAMES[field]] = assertToken(value, 'downloadKey');
  }
  if (Object.keys(query).length === 0) {
    throw new TypeError(`${method}() needs at least one of ${fields.join(', ')}`);
  }
  return query;
}

function assertId(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`${name} must be a positive integer, got ${typeof value === 'number' ? value : typeof value}`);
  }
  return value;
}

function assertEmail(value: unknown): string {
  if (typeof value !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(value)) {
    throw new TypeError('email must be an e-mail address such as "user@example.com"');
  }
  return value;
}

function assertToken(value: unknown, name: string): string {
  if (typeof value !== 'string' || !/^[\x21-\x7e]+$/.test(value)) {
    throw new TypeError(`${name} must be a non-empty string of visible ASCII characters`);
  }
  return value;
}

function assertTimeout(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 2_147_483_647) {
    throw new TypeError(`${name} must be a positive number of milliseconds (at most 2147483647)`);
  }
  return value;
}

/**
 * Checks the address of itch.io: https, or http on a loopback host (an emulator), without
 * credentials, query or fragment. Returns it without a trailing slash.
 * @throws TypeError naming the problem.
 */
export function assertApiBaseUrl(value: string): string {
  if (typeof value !== 'string' || !URL.canParse(value)) throw new TypeError(`baseUrl must be an absolute URL, got ${JSON.stringify(value)}`);
  const url = new URL(value);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new TypeError(`baseUrl must be https (http only on a loopback host), got ${JSON.stringify(url.protocol)} for ${url.hostname}`);
  }
  if (url.username !== '' || url.password !== '') throw new TypeError('baseUrl must not carry credentials');
  if (url.search !== '' || url.hash !== '') throw new TypeError('baseUrl must not carry a query or fragment');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
