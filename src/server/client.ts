import { assertId, lookupQuery, wharfQuery } from './client-arguments.js';
import type { ItchCredential } from './credential.js';
import { createCaller, loginMethods, type Host } from './login-client.js';
import type { CallOptions, FetchFunction } from './request.js';
import {
  gameClaimedRewardsResponseSchema,
  meResponseSchema,
  myGamesResponseSchema,
  profileCollectionsResponseSchema,
  profileGamesResponseSchema,
  profileOwnedKeysResponseSchema,
  purchasesResponseSchema,
  wharfLatestResponseSchema,
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

export { DEFAULT_TIMEOUT_MS, DEFAULT_API_BASE_URL } from './login-client.js';

export interface ItchClientOptions {
  /** The credential every authenticated call carries. */
  credential: ItchCredential;
  /**
   * The itch.io site: the legacy `/api/1/…` endpoints live under it. May carry a path prefix.
   * https, or http on a loopback host. Default `https://itch.io`.
   */
  baseUrl?: string | undefined;
  /**
   * The current API, without an `/api` prefix: OAuth-token calls, `credentials/info`,
   * `profile…`, `games/…`, `wharf/latest`. https, or http on a loopback host (an emulator's
   * `apiUrl`). Default `https://api.itch.io`.
   */
  apiBaseUrl?: string | undefined;
  /** The `fetch` to send requests with. Default: the global one. */
  fetch?: FetchFunction | undefined;
  /** Default time limit of a call in milliseconds. Default 10 000. */
  timeoutMs?: number | undefined;
}

/** download_keys looks a key up by at least one of these. @see https://itch.io/docs/api/serverside */
export interface DownloadKeyLookup {
  /** The key string, e.g. the last path segment of a buyer's download URL. */
  downloadKey?: string | undefined;
  /** A user id that cannot be spoofed (e.g. from a JWT of the app manifest). */
  userId?: number | undefined;
  /** An e-mail address the caller has verified the user owns. */
  email?: string | undefined;
}

/** purchases looks purchases up by at least one of these. @see https://itch.io/docs/api/serverside */
export interface PurchaseLookup {
  /** An e-mail address; verify it is the user's before trusting the result. */
  email?: string | undefined;
  userId?: number | undefined;
}

/** Which channel of which game `wharfLatest` asks about. */
export interface WharfChannel {
  /** `user/game`, as in the game's address `https://user.itch.io/game`. */
  target: string;
  /** The butler channel, e.g. `windows-beta`. */
  channelName: string;
}

/**
 * A typed itch.io API client, one method per endpoint, on two hosts:
 *
 * - the **current API** on `apiBaseUrl` (`https://api.itch.io`), with the credential as
 *   `Authorization: Bearer` (an `api-key`, `jwt` or `oauth` one): `credentialsInfo`, `profile`,
 *   `profileGames`, `profileCollections`, `profileOwnedKeys`, `gameOwnership`,
 *   `gameClaimedRewards`, `gameDownloadKeys`, `gamePurchases`, and `wharfLatest` (no credential);
 * - the **legacy API** on `baseUrl` (`https://itch.io/api/1/…`), for an `api-key`,
 *   `api-key-in-path` or `jwt` credential: `me`, `myGames`, `downloadKeys`, `purchases`, and
 *   `credentialsInfo` for a key in the path.
 *
 * Arguments are checked before any request (a `TypeError`); answers are validated; failures are
 * `ItchApiError`s. Redirects are never followed, so a credential never reaches another host.
 */
export interface ItchClient {
  /**
   * Scopes (and for a JWT `expires_at`, for an OAuth token `oauth_application_id`) of the
   * client's credential: `GET {apiBaseUrl}/credentials/info`, or the legacy
   * `/api/1/KEY/credentials/info` for a key in the path.
   */
  credentialsInfo(options?: CallOptions): Promise<CredentialInfo>;
  /** The owner of the credential (legacy `/api/1/KEY/me`; the current API calls it `profile`). */
  me(options?: CallOptions): Promise<User>;
  /** Games the caller uploaded or may edit (legacy `/api/1/KEY/my-games`, `p_*` flags). */
  myGames(options?: CallOptions): Promise<Game[]>;
  /** A download key of a game, from a purchase or a claim (legacy `/api/1/KEY/game/ID/download_keys`). */
  downloadKeys(gameId: number, lookup: DownloadKeyLookup, options?: CallOptions): Promise<DownloadKey>;
  /** Completed purchases of a game (legacy `/api/1/KEY/game/ID/purchases`); `[]` for a claimed key. */
  purchases(gameId: number, lookup: PurchaseLookup, options?: CallOptions): Promise<Purchase[]>;
  /** The credential's owner (`GET {apiBaseUrl}/profile`; OAuth scope `profile:me`). */
  profile(options?: CallOptions): Promise<User>;
  /** Games the user is developing, with `traits` and `classification` (`/profile/games`; scope `profile:games`). */
  profileGames(options?: CallOptions): Promise<Game[]>;
  /** The user's collections (`/profile/collections`; scope `profile:collections`). */
  profileCollections(options?: CallOptions): Promise<Collection[]>;
  /** One page of the games the user purchased or claimed (`/profile/owned-keys`; scope `profile:owned`). */
  profileOwnedKeys(query?: { page?: number | undefined }, options?: CallOptions): Promise<ProfileOwnedKeysResponse>;
  /** Whether the user owns a game of the OAuth application's creator (`/games/ID/ownership`; scope `game:view:ownership`). */
  gameOwnership(gameId: number, options?: CallOptions): Promise<GameOwnershipResponse>;
  /** Rewards claimed for a game the user develops (`/games/ID/claimed-rewards`; scope `game:view:rewards`). */
  gameClaimedRewards(gameId: number, options?: CallOptions): Promise<ClaimedReward[]>;
  /** A download key of a game, from a purchase or a claim (`/games/ID/download_keys`). */
  gameDownloadKeys(gameId: number, lookup: DownloadKeyLookup, options?: CallOptions): Promise<DownloadKey>;
  /**
   * Completed purchases of a game (`/games/ID/purchases`), with `quantity`, `status` and
   * `purchase_type`; a bundle purchase's `game_id` is the list of the bundle's games.
   */
  gamePurchases(gameId: number, lookup: PurchaseLookup, options?: CallOptions): Promise<Purchase[]>;
  /**
   * The latest version pushed to a butler channel (`/wharf/latest`, no credential sent):
   * `undefined` when the channel has none.
   */
  wharfLatest(channel: WharfChannel, options?: CallOptions): Promise<string | undefined>;
}

/**
 * Creates an itch.io API client for one credential.
 *
 * @example
 * const itch = createItchClient({ credential: { type: 'api-key', key: apiKey } });
 * const [purchase] = await itch.gamePurchases(3, { email: 'leaf@example.com' });
 *
 * @throws TypeError for a bad credential, `baseUrl`, `apiBaseUrl` or `timeoutMs` (never showing the secret).
 * @see https://itch.io/docs/api/serverside
 * @see https://itch.io/docs/api/oauth
 */
export function createItchClient(options: ItchClientOptions): ItchClient {
  const caller = createCaller(options);
  const { call, gamePath, downloadKeys } = caller;
  const purchases = async (method: string, host: Host, gameId: number, lookup: PurchaseLookup, callOptions?: CallOptions) => {
    const path = gamePath(gameId, host === 'legacy', 'purchases');
    const query = lookupQuery(lookup, method, ['email', 'userId']);
    return (await call(method, host, path, purchasesResponseSchema, callOptions, query)).purchases;
  };

  // Every method is async so that an argument error rejects its promise like any other failure.
  return {
    ...loginMethods(caller),
    async me(callOptions) {
      return (await call('me', 'legacy', '/me', meResponseSchema, callOptions)).user;
    },
    async myGames(callOptions) {
      return (await call('myGames', 'legacy', '/my-games', myGamesResponseSchema, callOptions)).games;
    },
    async downloadKeys(gameId, lookup, callOptions) {
      return downloadKeys('downloadKeys', 'legacy', gameId, lookup, callOptions);
    },
    async purchases(gameId, lookup, callOptions) {
      return purchases('purchases', 'legacy', gameId, lookup, callOptions);
    },
    async profileGames(callOptions) {
      return (await call('profileGames', 'current', '/profile/games', profileGamesResponseSchema, callOptions)).games;
    },
    async profileCollections(callOptions) {
      return (await call('profileCollections', 'current', '/profile/collections', profileCollectionsResponseSchema, callOptions))
        .collections;
    },
    async profileOwnedKeys(query = {}, callOptions) {
      const params: Record<string, string> = query.page === undefined ? {} : { page: String(assertId(query.page, 'page')) };
      return call('profileOwnedKeys', 'current', '/profile/owned-keys', profileOwnedKeysResponseSchema, callOptions, params);
    },
    async gameClaimedRewards(gameId, callOptions) {
      const path = gamePath(gameId, false, 'claimed-rewards');
      return (await call('gameClaimedRewards', 'current', path, gameClaimedRewardsResponseSchema, callOptions)).claimed_rewards;
    },
    async gamePurchases(gameId, lookup, callOptions) {
      return purchases('gamePurchases', 'current', gameId, lookup, callOptions);
    },
    async wharfLatest(channel, callOptions) {
      const query = wharfQuery(channel);
      return (await call('wharfLatest', 'public', '/wharf/latest', wharfLatestResponseSchema, callOptions, query)).latest;
    },
  };
}
