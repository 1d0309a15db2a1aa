import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { OOB_REDIRECT_URI } from '../core/authorize-url.js';

/**
 * The data an emulator starts from: users, their games, purchases, download keys, OAuth
 * applications and credentials. Written in JSON with itch.io's snake_case names; every id is a
 * positive integer and every date an ISO 8601 timestamp with an offset (`2024-03-01T12:00:00Z`).
 * Relations are checked at start: a purchase for an unknown game, or a key whose purchase is
 * for another game, is refused with the path of the bad entry.
 *
 * Modelling choices, from the spec (`itch-api.md` section 4A):
 * - a download key with a `purchase_id` comes from that purchase; one without is a claim;
 * - a purchase no download key points to is a donation;
 * - only purchases with `status: "complete"` are ever returned;
 * - a user's `verified` e-mail addresses are linked to each other; unverified ones are not.
 *
 * @see https://itch.io/docs/api/serverside
 */

const id = z.int().positive();
const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
const httpUrl = z.url({ protocol: /^https?$/ });
const currency = z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 currency code such as "USD"');
const scope = z.string().regex(/^[a-z_]+(:[a-z_]+)*$/, 'expected a scope such as "profile:me"');

/** An http(s) redirect URI without fragment (RFC 6749 section 3.1.2), or the out-of-band URN. */
export const redirectUriSchema = z.string().refine(
  (value) => {
    if (value === OOB_REDIRECT_URI) return true;
    if (!URL.canParse(value) || value.includes('#')) return false;
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  },
  { message: `expected an absolute http(s) URL without fragment or credentials, or "${OOB_REDIRECT_URI}"` },
);

const userSchema = z.strictObject({
  id,
  username: z.string().regex(/^[A-Za-z0-9_-]+$/, 'expected letters, digits, "-" or "_"'),
  display_name: z.string().min(1).optional(),
  gamer: z.boolean().default(true),
  developer: z.boolean().default(false),
  press_user: z.boolean().default(false),
  /** Profile address; default `https://<username>.itch.io`. */
  url: httpUrl.optional(),
  cover_url: httpUrl.optional(),
  emails: z.array(z.strictObject({ address: z.email(), verified: z.boolean() })).default([]),
});

const gameSchema = z.strictObject({
  id,
  /** The uploader. */
  user_id: id,
  /** Other users with edit access (they see the game in my-games and may query its purchases). */
  editor_ids: z.array(id).default([]),
  title: z.string().min(1),
  short_text: z.string().default(''),
  /** `html` is a web game. */
  type: z.enum(['default', 'html', 'flash', 'unity', 'java']).default('default'),
  classification: z
    .enum(['game', 'tool', 'assets', 'game_mod', 'physical_game', 'soundtrack', 'other', 'comic', 'book'])
    .default('game'),
  url: httpUrl,
  cover_url: httpUrl.optional(),
  created_at: timestamp,
  published: z.boolean().default(true),
  published_at: timestamp.optional(),
  /** In the currency's minor unit (cents). */
  min_price: z.int().nonnegative().default(0),
  can_be_bought: z.boolean().default(false),
  platforms: z.array(z.enum(['windows', 'linux', 'osx', 'android'])).default([]),
  downloads_count: z.int().nonnegative().default(0),
  views_count: z.int().nonnegative().default(0),
  /** `amount` in the currency's minor unit; `amount_formatted` is derived. */
  earnings: z.array(z.strictObject({ currency, amount: z.int().nonnegative() })).default([]),
  /** Latest version pushed with butler to each channel (`wharf/latest`), e.g. `{ "windows": "1.2.3" }`. */
  channels: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'expected a butler channel name'), z.string().min(1)).default({}),
});

const purchaseSchema = z.strictObject({
  id,
  game_id: id,
  /** The buyer's account, when they were logged in. */
  user_id: id.optional(),
  email: z.email(),
  created_at: timestamp,
  source: z.string().min(1).default('stripe'),
  currency: currency.default('USD'),
  /** In the currency's minor unit (cents); shown formatted with its symbol. */
  price: z.int().nonnegative(),
  sale_rate: z.number().nonnegative().default(0),
  /** Only `complete` purchases are returned by the API. */
  status: z.enum(['complete', 'pending', 'failed', 'refunded']).default('complete'),
  quantity: z.int().positive().default(1),
  /** A `bundle` purchase lists its games in `bundle_game_ids` (its `game_id` is one of them). */
  purchase_type: z.enum(['game', 'bundle', 'sub_product']).default('game'),
  bundle_game_ids: z.array(id).min(1).optional(),
});

const downloadKeySchema = z.strictObject({
  id,
  key: z.string().regex(/^[A-Za-z0-9_-]{16,}$/, 'expected at least 16 letters, digits, "-" or "_"'),
  game_id: id,
  /** The owner; a key bought without an account has none. */
  user_id: id.optional(),
  /** The purchase the key came from; absent for a claimed key. */
  purchase_id: id.optional(),
  downloads: z.int().nonnegative().default(0),
  created_at: timestamp,
  updated_at: timestamp.optional(),
  revoked: z.boolean().default(false),
});

const collectionSchema = z.strictObject({
  id,
  user_id: id,
  title: z.string().min(1),
  created_at: timestamp,
  updated_at: timestamp.optional(),
  game_ids: z.array(id).default([]),
});

const rewardSchema = z.strictObject({ id, game_id: id, title: z.string().min(1) });

const rewardClaimSchema = z.strictObject({ id, reward_id: id, purchase_id: id, created_at: timestamp });

const oauthApplicationSchema = z.strictObject({
  id,
  client_id: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'expected letters, digits, ".", "-" or "_"'),
  name: z.string().min(1),
  /** The developer who registered the application. */
  user_id: id,
  /** Compared exactly, character for character, with an authorization request's `redirect_uri`. */
  redirect_uris: z.array(redirectUriSchema).min(1),
});

const apiKeySchema = z.strictObject({
  id,
  key: z.string().regex(/^[A-Za-z0-9_-]{20,}$/, 'expected at least 20 letters, digits, "-" or "_"'),
  user_id: id,
  /** Absent: an unscoped key from the account's API keys page, which reaches every endpoint. */
  scopes: z.array(scope).min(1).optional(),
  /** Set on keys issued by the OAuth flow. */
  oauth_application_id: id.optional(),
  created_at: timestamp,
  revoked: z.boolean().default(false),
});

const jwtSchema = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'expected a JWT (three base64url parts)'),
  user_id: id,
  scopes: z.array(scope).min(1),
  expires_at: timestamp,
});

const seedObjectSchema = z.strictObject({
  users: z.array(userSchema).min(1),
  games: z.array(gameSchema).default([]),
  purchases: z.array(purchaseSchema).default([]),
  download_keys: z.array(downloadKeySchema).default([]),
  collections: z.array(collectionSchema).default([]),
  rewards: z.array(rewardSchema).default([]),
  reward_claims: z.array(rewardClaimSchema).default([]),
  oauth_applications: z.array(oauthApplicationSchema).default([]),
  api_keys: z.array(apiKeySchema).default([]),
  jwts: z.array(jwtSchema).default([]),
});

/** Zod schema of a seed; `z.input` of it is what a seed file holds. */
export const seedSchema = seedObjectSchema.superRefine(checkRelations);

/** A seed as written (JSON), before defaults are applied. */
export type SeedInput = z.input<typeof seedSchema>;
/** A validated seed, defaults applied and dates parsed. */
export type Seed = z.output<typeof seedSchema>;

export type UserRecord = Seed['users'][number];
export type GameRecord = Seed['games'][number];
export type PurchaseRecord = Seed['purchases'][number];

/** The games a purchase bought: its bundle's, or its one game. */
export function purchasedGames(purchase: Pick<PurchaseRecord, 'game_id' | 'bundle_game_ids'>): number[] {
  return purchase.bundle_game_ids ?? [purchase.game_id];
}
export type DownloadKeyRecord = Seed['download_keys'][number];
export type CollectionRecord = Seed['collections'][number];
export type RewardRecord = Seed['rewards'][number];
export type RewardClaimRecord = Seed['reward_claims'][number];
export type OAuthApplicationRecord = Seed['oauth_applications'][number];
export type ApiKeyRecord = Seed['api_keys'][number];
export type JwtRecord = Seed['jwts'][number];

/** Thrown when a seed cannot be read or is invalid; the message names the bad entries by path. */
export class EmulatorSeedError extends Error {
  override name = 'EmulatorSeedError';
}

/**
 * Validates seed data.
 * @param source names the data in the error message (a file name, or "seed object").
 * @throws EmulatorSeedError listing every problem with its path, e.g. `→ at games[1].user_id`.
 */
export function parseSeed(data: unknown, source = 'seed object'): Seed {
  const result = seedSchema.safeParse(data);
  if (!result.success) {
    throw new EmulatorSeedError(`Invalid emulator seed (${source}):\n${z.prettifyError(result.error)}`);
  }
  return result.data;
}

/**
 * Reads and validates a seed: `data` is a seed object, or the path of a JSON file holding one.
 * @throws EmulatorSeedError when the file cannot be read, is not JSON, or the seed is invalid.
 */
export async function loadSeed(data: unknown): Promise<Seed> {
  if (typeof data !== 'string') return parseSeed(data);
  let text: string;
  try {
    text = await readFile(data, 'utf8');
  } catch (error) {
    throw new EmulatorSeedError(`Cannot read emulator seed file ${data}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EmulatorSeedError(`Emulator seed file ${data} is not valid JSON: ${(error as Error).message}`);
  }
  return parseSeed(json, data);
}

/** Cross-entry rules zod cannot express per field: unique ids and values, and references. */
function checkRelations(seed: z.output<typeof seedObjectSchema>, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string): void => {
    ctx.addIssue({ code: 'custom', path, message });
  };
  const unique = <T>(list: readonly T[], key: (item: T) => unknown, name: string, field: string): void => {
    const seen = new Set<unknown>();
    list.forEach((item, index) => {
      const value = key(item);
      if (seen.has(value)) issue([name, index, field], `duplicate ${field} ${JSON.stringify(value)}`);
      seen.add(value);
    });
  };
  const ids = <T extends { id: number }>(list: readonly T[]): Map<number, T> => new Map(list.map((item) => [item.id, item]));
  const users = ids(seed.users);
  const games = ids(seed.games);
  const purchases = ids(seed.purchases);
  const rewards = ids(seed.rewards);
  const applications = ids(seed.oauth_applications);
  const refer = (map: Map<number, unknown>, value: number | undefined, path: (string | number)[], what: string): void => {
    if (value !== undefined && !map.has(value)) issue(path, `no ${what} with id ${value}`);
  };

  for (const name of [
    'users',
    'games',
    'purchases',
    'download_keys',
    'collections',
    'rewards',
    'reward_claims',
    'oauth_applications',
    'api_keys',
  ] as const) {
    unique<{ id: number }>(seed[name], (item) => item.id, name, 'id');
  }
  unique(seed.users, (user) => user.username.toLowerCase(), 'users', 'username');
  unique(seed.download_keys, (key) => key.key, 'download_keys', 'key');
  unique(seed.oauth_applications, (app) => app.client_id, 'oauth_applications', 'client_id');
  unique(seed.api_keys, (key) => key.key, 'api_keys', 'key');
  unique(seed.jwts, (jwt) => jwt.token, 'jwts', 'token');

  const verifiedBy = new Map<string, number>();
  seed.users.forEach((user, u) => {
    user.emails.forEach((email, e) => {
      const address = email.address.toLowerCase();
      const owner = verifiedBy.get(address);
      if (email.verified && owner !== undefined) {
        issue(['users', u, 'emails', e, 'address'], `${email.address} is already a verified address of user ${owner}`);
      }
      if (email.verified) verifiedBy.set(address, user.id);
    });
  });

  seed.games.forEach((game, i) => {
    refer(users, game.user_id, ['games', i, 'user_id'], 'user');
    game.editor_ids.forEach((editor, e) => refer(users, editor, ['games', i, 'editor_ids', e], 'user'));
    if (game.published && game.published_at === undefined) {
      issue(['games', i, 'published_at'], 'a published game needs published_at');
    }
  });
  seed.purchases.forEach((purchase, i) => {
    refer(games, purchase.game_id, ['purchases', i, 'game_id'], 'game');
    refer(users, purchase.user_id, ['purchases', i, 'user_id'], 'user');
    purchase.bundle_game_ids?.forEach((game, g) => refer(games, game, ['purchases', i, 'bundle_game_ids', g], 'game'));
    if ((purchase.purchase_type === 'bundle') !== (purchase.bundle_game_ids !== undefined)) {
      issue(['purchases', i, 'bundle_game_ids'], 'a bundle purchase, and only a bundle purchase, lists its bundle_game_ids');
    } else if (purchase.bundle_game_ids !== undefined && !purchase.bundle_game_ids.includes(purchase.game_id)) {
      issue(['purchases', i, 'game_id'], `game ${purchase.game_id} is not in the purchase's bundle_game_ids`);
    }
  });
  const keyForPurchase = new Map<string, number>();
  seed.download_keys.forEach((key, i) => {
    refer(games, key.game_id, ['download_keys', i, 'game_id'], 'game');
    refer(users, key.user_id, ['download_keys', i, 'user_id'], 'user');
    if (key.purchase_id === undefined) {
      if (key.user_id === undefined) issue(['download_keys', i, 'user_id'], 'a claimed key (no purchase_id) needs its user_id');
      return;
    }
    const purchase = purchases.get(key.purchase_id);
    if (purchase === undefined) {
      issue(['download_keys', i, 'purchase_id'], `no purchase with id ${key.purchase_id}`);
    } else if (!purchasedGames(purchase).includes(key.game_id)) {
      issue(['download_keys', i, 'purchase_id'], `purchase ${purchase.id} is for game ${purchase.game_id}, not ${key.game_id}`);
    }
    // One key per purchase and game: a bundle purchase has one for each of its games.
    const slot = `${key.purchase_id}/${key.game_id}`;
    if (keyForPurchase.has(slot)) {
      issue(['download_keys', i, 'purchase_id'], `purchase ${key.purchase_id} already has download key ${keyForPurchase.get(slot)}`);
    }
    keyForPurchase.set(slot, key.id);
  });
  seed.collections.forEach((collection, i) => {
    refer(users, collection.user_id, ['collections', i, 'user_id'], 'user');
    collection.game_ids.forEach((game, g) => refer(games, game, ['collections', i, 'game_ids', g], 'game'));
  });
  seed.rewards.forEach((reward, i) => refer(games, reward.game_id, ['rewards', i, 'game_id'], 'game'));
  seed.reward_claims.forEach((claim, i) => {
    const reward = rewards.get(claim.reward_id);
    const purchase = purchases.get(claim.purchase_id);
    refer(rewards, claim.reward_id, ['reward_claims', i, 'reward_id'], 'reward');
    refer(purchases, claim.purchase_id, ['reward_claims', i, 'purchase_id'], 'purchase');
    if (reward !== undefined && purchase !== undefined && reward.game_id !== purchase.game_id) {
      issue(['reward_claims', i, 'purchase_id'], `purchase ${purchase.id} is for game ${purchase.game_id}, the reward for game ${reward.game_id}`);
    }
  });
  seed.oauth_applications.forEach((app, i) => refer(users, app.user_id, ['oauth_applications', i, 'user_id'], 'user'));
  seed.api_keys.forEach((key, i) => {
    refer(users, key.user_id, ['api_keys', i, 'user_id'], 'user');
    refer(applications, key.oauth_application_id, ['api_keys', i, 'oauth_application_id'], 'OAuth application');
    if (key.oauth_application_id !== undefined && key.scopes === undefined) {
      issue(['api_keys', i, 'scopes'], 'a key issued to an OAuth application carries the scopes it was granted');
    }
  });
  seed.jwts.forEach((jwt, i) => refer(users, jwt.user_id, ['jwts', i, 'user_id'], 'user'));
}
