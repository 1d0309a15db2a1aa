import { assertId, lookupQuery, wharfQuery } from './client-arguments.js';
import { createCaller, loginMethods, type Host } from './login-client.js';
import type { CallOptions } from './request.js';
import type { ItchClient, ItchClientOptions, PurchaseLookup } from './client-types.js';
import {
  gameClaimedRewardsResponseSchema,
  meResponseSchema,
  myGamesResponseSchema,
  profileCollectionsResponseSchema,
  profileGamesResponseSchema,
  profileOwnedKeysResponseSchema,
  purchasesResponseSchema,
  wharfLatestResponseSchema,
} from './schemas.js';

export { DEFAULT_TIMEOUT_MS, DEFAULT_API_BASE_URL } from './login-client.js';

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
 * @group itch.io API client
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
