import { Hono, type MiddlewareHandler } from 'hono';
import { API_ERRORS, ApiError } from './api-error.js';
import { answerDownloadKeys, answerPurchases, SERVERSIDE_SCOPES } from './api-serverside.js';
import { authenticateBearer, bearerToken, credentialInfo, scoped, type ApiEnv } from './credentials.js';
import { gameFromPath, param, positiveIntParam, requestParams } from './request-input.js';
import type { CollectionRecord, DownloadKeyRecord, GameRecord } from './seed.js';
import type { ClaimedReward, EmulatorStore } from './store.js';
import { formatMoney, formatOAuthApiDate as date, profileUrl, publicUser } from './wire-format.js';

const METHODS = ['GET', 'POST'];

/** itch.io's page size for profile/owned-keys (fixture TheArtfulBodger__wyvern__profile-owned-keys.json). */
export const OWNED_KEYS_PER_PAGE = 50;

/**
 * The scope that reaches each OAuth-scoped endpoint; credentials/info needs none.
 * @see https://itch.io/docs/api/oauth
 */
export const OAUTH_API_SCOPES = {
  profile: 'profile:me',
  profileGames: 'profile:games',
  profileCollections: 'profile:collections',
  profileOwnedKeys: 'profile:owned',
  ownership: 'game:view:ownership',
  claimedRewards: 'game:view:rewards',
} as const;

/** `Authorization: Bearer <token>`, an API key (OAuth access tokens are API keys) or a JWT. */
function authenticate(store: EmulatorStore): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    c.set('credential', authenticateBearer(store, bearerToken(c.req.header('authorization'))));
    await next();
  };
}

/** `p_windows`-style platform traits then `can_be_bought`, as api.itch.io lists them. */
function traits(game: GameRecord): string[] {
  const platforms = (['windows', 'linux', 'osx', 'android'] as const).filter((p) => game.platforms.includes(p)).map((p) => `p_${p}`);
  return game.can_be_bought ? [...platforms, 'can_be_bought'] : platforms;
}

/** The game fields shared by profile/games and owned keys (fixtures `*profile-games*`, `*owned-keys*`). */
function gameSummary(game: GameRecord): Record<string, unknown> {
  return {
    id: game.id,
    title: game.title,
    short_text: game.short_text,
    type: game.type,
    classification: game.classification,
    url: game.url,
    ...(game.cover_url === undefined ? {} : { cover_url: game.cover_url }),
    created_at: date(game.created_at),
    ...(game.published_at === undefined ? {} : { published_at: date(game.published_at) }),
    min_price: game.min_price,
    traits: traits(game),
  };
}

function developedGame(store: EmulatorStore, game: GameRecord): Record<string, unknown> {
  return {
    ...gameSummary(game),
    published: game.published,
    downloads_count: game.downloads_count,
    purchases_count: store.completedPurchaseCount(game.id),
    views_count: game.views_count,
    earnings: game.earnings.map((earning) => ({
      currency: earning.currency,
      amount: earning.amount,
      amount_formatted: formatMoney(earning.amount, earning.currency),
    })),
  };
}

function ownedKey(store: EmulatorStore, key: DownloadKeyRecord): Record<string, unknown> {
  const game = store.game(key.game_id);
  const developer = game === undefined ? undefined : store.user(game.user_id);
  return {
    id: key.id,
    game_id: key.game_id,
    downloads: key.downloads,
    created_at: date(key.created_at),
    updated_at: date(key.updated_at ?? key.created_at),
    ...(key.purchase_id === undefined ? {} : { purchase_id: key.purchase_id }),
    ...(game === undefined || developer === undefined
      ? {}
      : {
          game: {
            ...gameSummary(game),
            user: {
              id: developer.id,
              username: developer.username,
              url: profileUrl(developer),
              ...(developer.cover_url === undefined ? {} : { cover_url: developer.cover_url }),
            },
          },
        }),
  };
}

function collection(record: CollectionRecord): Record<string, unknown> {
  return {
    id: record.id,
    title: record.title,
    created_at: date(record.created_at),
    updated_at: date(record.updated_at ?? record.created_at),
    games_count: record.game_ids.length,
  };
}

function claimedReward({ claim, reward }: ClaimedReward): Record<string, unknown> {
  return {
    id: claim.id,
    reward_id: reward.id,
    game_id: reward.game_id,
    title: reward.title,
    purchase_id: claim.purchase_id,
    created_at: date(claim.created_at),
  };
}

/**
 * The current API, which itch.io serves on `https://api.itch.io/…` and the emulator under
 * `/api/…` (its `apiUrl`): `Authorization: Bearer` with an OAuth access token, an API key or a
 * JWT, dates in RFC 3339. Response fields follow itch.io's documentation and recorded responses.
 *
 * | path | scope | body |
 * |---|---|---|
 * | `/api/profile` | `profile:me` | `{ user }` |
 * | `/api/profile/games` | `profile:games` | `{ games }`, games the user uploaded or may edit, with `traits`, counters and `earnings` |
 * | `/api/profile/collections` | `profile:collections` | `{ collections: [{ id, title, created_at, updated_at, games_count }] }` |
 * | `/api/profile/owned-keys?page=N` | `profile:owned` | `{ page, per_page, owned_keys }`, live keys from purchases and claims, newest first, with their `game` |
 * | `/api/games/<id>/ownership` | `game:view:ownership` | `{ owns }`; 403 unless the game was uploaded by the OAuth application's creator (for a credential without application: its own user) |
 * | `/api/games/<id>/claimed-rewards` | `game:view:rewards` | `{ claimed_rewards: [{ id, reward_id, game_id, title, purchase_id, created_at }] }`; 403 unless the user develops the game |
 * | `/api/games/<id>/download_keys` | `game:view:purchases` | `{ download_key }` as on `/api/1/…`; 403 unless the caller may edit the game |
 * | `/api/games/<id>/purchases` | `game:view:purchases` | `{ purchases }` with `quantity`, `status`, `purchase_type`; a bundle's `game_id` is a list |
 * | `/api/wharf/latest?target=user/game&channel_name=…` | no credential | `{ latest }`, or `{}` for a channel without a build; 404 `invalid game` |
 * | `/api/credentials/info` | none | `{ type, scopes, oauth_application_id?, expires_at? }` |
 *
 * @see https://itch.io/docs/api/oauth
 */
export function oauthApi(store: EmulatorStore, options: { ownedKeysPerPage: number }): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();
  const auth = authenticate(store);

  api.on(METHODS, '/api/credentials/info', auth, (c) => c.json(credentialInfo(c.get('credential'), date)));

  api.on(METHODS, '/api/profile', auth, scoped(OAUTH_API_SCOPES.profile), (c) => c.json({ user: publicUser(c.get('credential').user) }));

  api.on(METHODS, '/api/profile/games', auth, scoped(OAUTH_API_SCOPES.profileGames), (c) => {
    const games = store.gamesEditableBy(c.get('credential').user.id);
    return c.json({ games: games.map((game) => developedGame(store, game)) });
  });

  api.on(METHODS, '/api/profile/collections', auth, scoped(OAUTH_API_SCOPES.profileCollections), (c) =>
    c.json({ collections: store.collectionsOf(c.get('credential').user.id).map(collection) }),
  );

  api.on(METHODS, '/api/profile/owned-keys', auth, scoped(OAUTH_API_SCOPES.profileOwnedKeys), async (c) => {
    const page = positiveIntParam(await requestParams(c), 'page') ?? 1;
    const perPage = options.ownedKeysPerPage;
    const keys = store.ownedKeys(c.get('credential').user.id).slice((page - 1) * perPage, page * perPage);
    return c.json({ page, per_page: perPage, owned_keys: keys.map((key) => ownedKey(store, key)) });
  });

  api.on(METHODS, '/api/games/:gameId/ownership', auth, scoped(OAUTH_API_SCOPES.ownership), (c) => {
    const credential = c.get('credential');
    const game = gameFromPath(store, c.req.param('gameId'));
    const creator = credential.type === 'key' && credential.application !== undefined ? credential.application.user_id : credential.user.id;
    if (game.user_id !== creator) {
      throw new ApiError(403, "ownership can only be checked for games of the OAuth application's creator");
    }
    return c.json({ owns: store.activeKeysFor(game.id, { userId: credential.user.id }).length > 0 });
  });

  // The current server-side API (api.itch.io), for API keys and JWTs as Bearer.
  api.on(METHODS, '/api/games/:gameId/download_keys', auth, scoped(SERVERSIDE_SCOPES.downloadKeys), (c) =>
    answerDownloadKeys(c, store, date),
  );
  api.on(METHODS, '/api/games/:gameId/purchases', auth, scoped(SERVERSIDE_SCOPES.purchases), (c) => answerPurchases(c, store, date));

  // No credential: anyone may ask which version a butler channel is at.
  api.on(METHODS, '/api/wharf/latest', async (c) => {
    const params = await requestParams(c);
    const target = param(params, 'target');
    const channel = param(params, 'channel_name');
    if (target === undefined || channel === undefined) throw new ApiError(400, 'missing parameter: target and channel_name are required');
    const game = store.gameByTarget(target);
    if (game === undefined) throw new ApiError(404, API_ERRORS.invalidGame);
    const latest = Object.hasOwn(game.channels, channel) ? game.channels[channel] : undefined;
    return c.json(latest === undefined ? {} : { latest });
  });

  api.on(METHODS, '/api/games/:gameId/claimed-rewards', auth, scoped(OAUTH_API_SCOPES.claimedRewards), (c) => {
    const credential = c.get('credential');
    const game = gameFromPath(store, c.req.param('gameId'));
    if (!store.canEdit(credential.user.id, game)) {
      throw new ApiError(403, 'claimed rewards can only be listed for games you develop');
    }
    return c.json({ claimed_rewards: store.claimedRewards(game.id).map(claimedReward) });
  });

  return api;
}
