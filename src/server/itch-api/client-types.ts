/*
 * What the itch.io client is: its options, the lookups its methods take, and the `ItchClient`
 * interface, one method per endpoint. Types only, so that the client (./client.ts), its login
 * methods (./login-client.ts) and the checks of its arguments (./client-arguments.ts) share
 * them without importing one another.
 */
import type { ItchCredential } from './credential.js';
import type { CallOptions, FetchFunction } from './request.js';
import type {
  ClaimedReward,
  Collection,
  CredentialInfo,
  DownloadKey,
  Game,
  GameOwnershipResponse,
  ProfileOwnedKeysResponse,
  Purchase,
  User,
} from './schemas.js';

/**
 * The options of `createItchClient`: the credential, the hosts, `fetch` and the time limit.
 * @group itch.io API client
 */
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

/**
 * download_keys looks a key up by at least one of these. @see https://itch.io/docs/api/serverside
 * @group itch.io API client
 */
export interface DownloadKeyLookup {
  /** The key string, e.g. the last path segment of a buyer's download URL. */
  downloadKey?: string | undefined;
  /** A user id that cannot be spoofed (e.g. from a JWT of the app manifest). */
  userId?: number | undefined;
  /** An e-mail address the caller has verified the user owns. */
  email?: string | undefined;
}

/**
 * purchases looks purchases up by at least one of these. @see https://itch.io/docs/api/serverside
 * @group itch.io API client
 */
export interface PurchaseLookup {
  /** An e-mail address; verify it is the user's before trusting the result. */
  email?: string | undefined;
  userId?: number | undefined;
}

/**
 * Which channel of which game `wharfLatest` asks about.
 * @group itch.io API client
 */
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
 * @group itch.io API client
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
