import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { API_ERRORS, ApiError } from './api-error.js';
import { authenticateApiKey, authenticateJwt, bearerToken, credentialInfo, scoped, type ApiEnv, type Credential } from './credentials.js';
import { gameFromPath, param, positiveIntParam, requestParams } from './request-input.js';
import type { DownloadKeyRecord, GameRecord, PurchaseRecord } from './seed.js';
import type { EmulatorStore } from './store.js';
import { formatMoney, formatServersideDate, publicUser } from './wire-format.js';

const METHODS = ['GET', 'POST'];

/**
 * The scope each server-side endpoint requires of a scoped credential (unscoped API keys reach
 * all): the ones itch.io documents for the same data (https://itch.io/docs/api/oauth).
 */
export const SERVERSIDE_SCOPES = {
  me: 'profile:me',
  myGames: 'profile:games',
  downloadKeys: 'game:view:purchases',
  purchases: 'game:view:purchases',
} as const;

/**
 * Authenticates `/api/1/<KEY>/…` by itch.io's three forms: `key` + `Authorization: Bearer
 * <API key>`, `jwt` + `Authorization: Bearer <JWT>` (refused from its `expires_at` on), or the
 * API key itself as the path segment.
 */
function authenticatePathCredential(store: EmulatorStore): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const segment = c.req.param('key');
    const bearer = bearerToken(c.req.header('authorization'));
    const credential =
      segment === 'key'
        ? authenticateApiKey(store, bearer)
        : segment === 'jwt'
          ? authenticateJwt(store, bearer)
          : authenticateApiKey(store, segment);
    c.set('credential', credential);
    await next();
  };
}

function serversideGame(store: EmulatorStore, game: GameRecord): Record<string, unknown> {
  return {
    id: game.id,
    title: game.title,
    short_text: game.short_text,
    type: game.type,
    url: game.url,
    ...(game.cover_url === undefined ? {} : { cover_url: game.cover_url }),
    created_at: formatServersideDate(game.created_at),
    published: game.published,
    ...(game.published_at === undefined ? {} : { published_at: formatServersideDate(game.published_at) }),
    min_price: game.min_price,
    downloads_count: game.downloads_count,
    purchases_count: store.completedPurchaseCount(game.id),
    views_count: game.views_count,
    p_android: game.platforms.includes('android'),
    p_linux: game.platforms.includes('linux'),
    p_osx: game.platforms.includes('osx'),
    p_windows: game.platforms.includes('windows'),
    earnings: game.earnings.map((earning) => ({
      currency: earning.currency,
      amount: earning.amount,
      amount_formatted: formatMoney(earning.amount, earning.currency),
    })),
  };
}

/** How dates are written: `YYYY-MM-DD HH:MM:ss` on `/api/1/…`, RFC 3339 on the current API. */
type DateFormat = (date: Date) => string;

function serversideDownloadKey(store: EmulatorStore, key: DownloadKeyRecord, date: DateFormat): Record<string, unknown> {
  const owner = key.user_id === undefined ? undefined : store.user(key.user_id);
  return {
    id: key.id,
    key: key.key,
    game_id: key.game_id,
    downloads: key.downloads,
    created_at: date(key.created_at),
    ...(owner === undefined ? {} : { owner: publicUser(owner) }),
  };
}

/**
 * A purchase as one of the two APIs lists it for `gameId`. The current one adds `quantity`,
 * `status` and `purchase_type`, and gives a bundle purchase's `game_id` as the list of the
 * bundle's games; the legacy one knows only the game asked about.
 */
function serversidePurchase(
  store: EmulatorStore,
  purchase: PurchaseRecord,
  gameId: number,
  current: DateFormat | undefined,
): Record<string, unknown> {
  const common = {
    id: purchase.id,
    email: purchase.email,
    source: purchase.source,
    currency: purchase.currency,
    price: formatMoney(purchase.price, purchase.currency),
    sale_rate: purchase.sale_rate,
    donation: store.isDonation(purchase),
  };
  if (current === undefined) return { ...common, game_id: gameId, created_at: formatServersideDate(purchase.created_at) };
  return {
    ...common,
    game_id: purchase.bundle_game_ids ?? purchase.game_id,
    created_at: current(purchase.created_at),
    quantity: purchase.quantity,
    status: purchase.status,
    purchase_type: purchase.purchase_type,
  };
}

const editableGame = (store: EmulatorStore, credential: Credential, id: string | undefined): GameRecord => {
  const game = gameFromPath(store, id);
  if (!store.canEdit(credential.user.id, game)) throw new ApiError(403, 'you do not have edit access to this game');
  return game;
};

/**
 * download_keys of either API (`download_key`, `user_id` or `email`): a `download_key` is
 * checked first and alone; otherwise a live key matching `user_id` or an address linked to
 * `email` is returned.
 */
export async function answerDownloadKeys(c: Context<ApiEnv>, store: EmulatorStore, date: DateFormat): Promise<Response> {
  const game = editableGame(store, c.get('credential'), c.req.param('gameId'));
  const params = await requestParams(c);
  const downloadKey = param(params, 'download_key');
  const userId = positiveIntParam(params, 'user_id');
  const email = param(params, 'email');
  if (downloadKey === undefined && userId === undefined && email === undefined) {
    throw new ApiError(400, 'missing parameter: one of download_key, user_id or email is required');
  }
  if (downloadKey !== undefined) {
    const key = store.downloadKeyByValue(downloadKey);
    if (key === undefined || key.revoked || key.game_id !== game.id) throw new ApiError(400, API_ERRORS.invalidDownloadKey);
    return c.json({ download_key: serversideDownloadKey(store, key, date) });
  }
  const [key] = store.activeKeysFor(game.id, { userId, email });
  if (key === undefined) throw new ApiError(404, API_ERRORS.noDownloadKeyFound);
  return c.json({ download_key: serversideDownloadKey(store, key, date) });
}

/**
 * purchases of either API (`email` or `user_id`): completed purchases only, an empty result
 * serialized as `{ "purchases": {} }`. `current` is the current API's date format.
 */
export async function answerPurchases(c: Context<ApiEnv>, store: EmulatorStore, current: DateFormat | undefined): Promise<Response> {
  const game = editableGame(store, c.get('credential'), c.req.param('gameId'));
  const params = await requestParams(c);
  const userId = positiveIntParam(params, 'user_id');
  const email = param(params, 'email');
  if (userId === undefined && email === undefined) {
    throw new ApiError(400, 'missing parameter: one of email or user_id is required');
  }
  const purchases = store.completedPurchases(game.id, { userId, email });
  return c.json({
    purchases: purchases.length === 0 ? {} : purchases.map((purchase) => serversidePurchase(store, purchase, game.id, current)),
  });
}

/**
 * Spec table A, the server-side API under `/api/1/<KEY>/…`, dates as `YYYY-MM-DD HH:MM:ss`.
 *
 * - `credentials/info`: `{ type, scopes, expires_at? , oauth_application_id? }`.
 * - `me`: `{ user }`, the credential's owner.
 * - `my-games`: `{ games }`, games the caller uploaded or has edit access to.
 * - `game/<id>/download_keys` (`download_key`, `user_id` or `email`): `{ download_key }`, looked
 *   up among keys from purchases and from claims. A `download_key` is checked first and alone;
 *   otherwise a live key matching `user_id` or an address linked to `email` is returned.
 * - `game/<id>/purchases` (`email` or `user_id`): `{ purchases }`, completed purchases only,
 *   matched on every verified address linked to `email` (and, for `user_id`, the user's own
 *   purchases and those under their verified addresses). An empty result, such as for a user
 *   whose key was claimed, is serialized as `{ "purchases": {} }`: an empty object, the way
 *   itch.io's Lua JSON encoder writes an empty list.
 *
 * The two game endpoints answer 404 `invalid game` for an unknown game and 403 for a game the
 * caller neither uploaded nor may edit.
 *
 * @see https://itch.io/docs/api/serverside
 */
export function serversideApi(store: EmulatorStore): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();
  api.use('/api/1/:key/*', authenticatePathCredential(store));

  api.on(METHODS, '/api/1/:key/credentials/info', (c) => c.json(credentialInfo(c.get('credential'), formatServersideDate)));

  api.on(METHODS, '/api/1/:key/me', scoped(SERVERSIDE_SCOPES.me), (c) => c.json({ user: publicUser(c.get('credential').user) }));

  api.on(METHODS, '/api/1/:key/my-games', scoped(SERVERSIDE_SCOPES.myGames), (c) => {
    const games = store.gamesEditableBy(c.get('credential').user.id);
    return c.json({ games: games.map((game) => serversideGame(store, game)) });
  });

  api.on(METHODS, '/api/1/:key/game/:gameId/download_keys', scoped(SERVERSIDE_SCOPES.downloadKeys), (c) =>
    answerDownloadKeys(c, store, formatServersideDate),
  );

  api.on(METHODS, '/api/1/:key/game/:gameId/purchases', scoped(SERVERSIDE_SCOPES.purchases), (c) => answerPurchases(c, store, undefined));

  return api;
}
