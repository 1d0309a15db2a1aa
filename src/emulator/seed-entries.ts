import { z } from 'zod';
import { OOB_REDIRECT_URI } from '../core/authorize-url.js';

/**
 * The data an emulator starts from: users, their games, purchases, download keys, OAuth
 * applications and credentials. Written in JSON with itch.io's snake_case names; every id is a
 * positive integer and every date an ISO 8601 timestamp with an offset (`2024-03-01T12:00:00Z`).
 * Relations are checked at start: a purchase for an unknown game, or a key whose purchase is
 * for another game, is refused with the path of the bad entry.
 *
 * Modelling choices, from itch.io's rules for download keys and purchases (https://itch.io/docs/api/serverside):
 * - a download key with a `purchase_id` comes from that purchase; one without is a claim;
 * - a purchase no download key points to is a donation;
 * - only purchases with `status: "complete"` are ever returned;
 * - a user's `verified` e-mail addresses are linked to each other; unverified ones are not.
 *
 * This file holds each entry's schema; seed.ts adds the rules across entries.
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
  classification: z.enum(['game', 'tool', 'assets', 'game_mod', 'physical_game', 'soundtrack', 'other', 'comic', 'book']).default('game'),
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

export const seedObjectSchema = z.strictObject({
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

/** A seed whose every entry is valid on its own, before the rules across entries. */
export type SeedObject = z.output<typeof seedObjectSchema>;

export type UserRecord = SeedObject['users'][number];
export type GameRecord = SeedObject['games'][number];
export type PurchaseRecord = SeedObject['purchases'][number];

export type DownloadKeyRecord = SeedObject['download_keys'][number];
export type CollectionRecord = SeedObject['collections'][number];
export type RewardRecord = SeedObject['rewards'][number];
export type RewardClaimRecord = SeedObject['reward_claims'][number];
export type OAuthApplicationRecord = SeedObject['oauth_applications'][number];
export type ApiKeyRecord = SeedObject['api_keys'][number];
export type JwtRecord = SeedObject['jwts'][number];
