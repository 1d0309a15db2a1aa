import * as z from 'zod/mini';

/*
 * Zod schemas of the itch.io API's resources and response bodies.
 *
 * Tolerant where the real API is: an empty list may arrive as `{}`, dates come as
 * `YYYY-MM-DD HH:MM:ss` (UTC) or RFC 3339, fields itch.io's documentation does not list are kept, and fields
 * that real responses leave out are optional. Strict where it matters: ids are integers and
 * `errors` is a list of strings.
 */

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/i;

/**
 * Reads an itch.io date: `YYYY-MM-DD HH:MM:ss` (UTC, the `/api/1/` form) or RFC 3339 with up to
 * nanoseconds (`2021-12-22T22:26:44.000000000Z`). A date without an offset is UTC.
 * Returns `undefined` for anything else, including impossible dates such as February 30.
 * @see https://itch.io/docs/api/serverside
 */
export function parseItchDate(value: string): Date | undefined {
  const match = DATE_PATTERN.exec(value);
  if (match === null) return undefined;
  const [year, month, day, hours, minutes, seconds] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const millis = Number((match[7] ?? '0').padEnd(3, '0').slice(0, 3));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hours, minutes, seconds, millis);
  const fieldsKept =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hours &&
    date.getUTCMinutes() === minutes &&
    date.getUTCSeconds() === seconds;
  if (!fieldsKept) return undefined;
  const offset = match[8]?.toUpperCase() ?? 'Z';
  if (offset === 'Z') return date;
  const sign = offset.startsWith('-') ? -1 : 1;
  const offsetMinutes = Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6));
  return new Date(date.getTime() - sign * offsetMinutes * 60_000);
}

/** An itch.io date string, parsed to a `Date`. */
export const itchDateSchema = z.pipe(
  z.string(),
  z.transform((value: string, ctx) => {
    const date = parseItchDate(value);
    if (date === undefined) {
      ctx.issues.push({ code: 'custom', input: value, message: 'expected a date as "YYYY-MM-DD HH:MM:ss" (UTC) or RFC 3339' });
      return z.NEVER;
    }
    return date;
  }),
);

/** A list that itch.io sends as `{}` when it is empty (an empty Lua table). */
function itchList<T extends z.ZodMiniType>(item: T) {
  const emptyObjectToList = (value: unknown): unknown =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0 ? [] : value;
  return z.pipe(z.transform(emptyObjectToList), z.array(item));
}

const id = z.int().check(z.positive());
const count = z.int().check(z.nonnegative());

/** A user as it appears inside another resource (e.g. the developer of a game). */
export const userSummarySchema = z.looseObject({
  id,
  username: z.string(),
  display_name: z.optional(z.string()),
  /** Site-relative or absolute address of the profile page. */
  url: z.string(),
  cover_url: z.optional(z.string()),
});

/**
 * A public profile, as answered by `/me` and `/profile`.
 * @see https://itch.io/docs/api/serverside
 */
export const userSchema = z.extend(userSummarySchema, {
  gamer: z.boolean(),
  developer: z.boolean(),
  press_user: z.boolean(),
});

/** What a game earned in one currency. @see https://itch.io/docs/api/serverside */
export const earningSchema = z.looseObject({
  currency: z.string(),
  /** In the currency's minor unit (cents). */
  amount: z.int(),
  amount_formatted: z.string(),
});

/**
 * A game. The legacy my-games lists platforms as `p_windows`-style booleans; the current API
 * (profile/games, owned-keys) as `traits` (`["p_windows", "p_linux", "can_be_bought"]`) with a
 * `classification` (`"game"`, `"tool"`, …), and leaves out more fields, so only `id` and `url`
 * are required.
 * @see https://itch.io/docs/api/serverside
 */
export const gameSchema = z.looseObject({
  id,
  url: z.string(),
  title: z.optional(z.string()),
  short_text: z.optional(z.string()),
  type: z.optional(z.string()),
  classification: z.optional(z.string()),
  cover_url: z.optional(z.string()),
  created_at: z.optional(itchDateSchema),
  published: z.optional(z.boolean()),
  published_at: z.optional(itchDateSchema),
  /** In the currency's minor unit (cents). */
  min_price: z.optional(count),
  downloads_count: z.optional(count),
  purchases_count: z.optional(count),
  views_count: z.optional(count),
  p_android: z.optional(z.boolean()),
  p_linux: z.optional(z.boolean()),
  p_osx: z.optional(z.boolean()),
  p_windows: z.optional(z.boolean()),
  traits: z.optional(itchList(z.string())),
  earnings: z.optional(itchList(earningSchema)),
  /** The developer, in responses that embed it. */
  user: z.optional(userSummarySchema),
});

/**
 * A download key, from a purchase or a claim.
 * @see https://itch.io/docs/api/serverside
 */
export const downloadKeySchema = z.looseObject({
  id,
  /** The value that ends a buyer's download URL. */
  key: z.string(),
  game_id: id,
  downloads: count,
  created_at: itchDateSchema,
  /** Absent for a key bought without an account. */
  owner: z.optional(userSchema),
});

/**
 * What a purchase bought: a `game`, a `bundle` (then `game_id` lists the bundle's games) or a
 * `sub_product`; a string itch.io adds later is kept as it is.
 */
export type PurchaseType = 'game' | 'bundle' | 'sub_product' | (string & {});

/**
 * A completed purchase. `donation` is true when no download key is tied to it. The current API
 * adds `quantity`, `status` and `purchase_type`; for a bundle purchase its `game_id` is the
 * list of the bundle's game ids.
 * @see https://itch.io/docs/api/serverside
 */
export const purchaseSchema = z.looseObject({
  id,
  game_id: z.union([id, z.array(id)]),
  email: z.string(),
  created_at: itchDateSchema,
  source: z.string(),
  currency: z.string(),
  /** Formatted with the currency symbol, e.g. `"$1.00"`. */
  price: z.string(),
  sale_rate: z.number(),
  donation: z.boolean(),
  quantity: z.optional(z.int().check(z.positive())),
  /** `"complete"` in every answer: only completed purchases are listed. */
  status: z.optional(z.string()),
  purchase_type: z.optional(z.pipe(z.string(), z.transform((value: string) => value as PurchaseType))),
});

/**
 * What credentials/info answers: the scopes, `expires_at` for a JWT, and (seen in real
 * responses for OAuth access tokens) the `oauth_application_id` the token was issued to.
 * @see https://itch.io/docs/api/serverside
 */
export const credentialInfoSchema = z.looseObject({
  scopes: itchList(z.string()),
  expires_at: z.optional(itchDateSchema),
  /** `"key"` or `"jwt"` in current responses. */
  type: z.optional(z.string()),
  oauth_application_id: z.optional(id),
});

/** A collection of the user (profile/collections; fields not shown in itch.io's documentation). */
export const collectionSchema = z.looseObject({
  id,
  title: z.optional(z.string()),
  games_count: z.optional(count),
  created_at: z.optional(itchDateSchema),
  updated_at: z.optional(itchDateSchema),
});

/** A game the user purchased or claimed (profile/owned-keys; fields seen in real responses). */
export const ownedKeySchema = z.looseObject({
  id,
  game_id: id,
  downloads: z.optional(count),
  /** Absent for a claimed key. */
  purchase_id: z.optional(id),
  created_at: z.optional(itchDateSchema),
  updated_at: z.optional(itchDateSchema),
  game: z.optional(gameSchema),
});

/** A reward claimed by a buyer of one of the user's games (fields not shown in itch.io's documentation). */
export const claimedRewardSchema = z.looseObject({
  id,
  reward_id: z.optional(id),
  purchase_id: z.optional(id),
  game_id: z.optional(id),
  title: z.optional(z.string()),
  created_at: z.optional(itchDateSchema),
});

/**
 * The body of every error answer: `{ "errors": ["..."] }`, sometimes with `details`.
 * @see https://itch.io/docs/api/serverside
 */
export const errorsResponseSchema = z.looseObject({
  errors: z.array(z.string()).check(z.minLength(1)),
  details: z.optional(z.string()),
});

/** `/api/1/KEY/me` @see https://itch.io/docs/api/serverside */
export const meResponseSchema = z.looseObject({ user: userSchema });
/** `/api/1/KEY/my-games` @see https://itch.io/docs/api/serverside */
export const myGamesResponseSchema = z.looseObject({ games: itchList(gameSchema) });
/** `/api/1/KEY/game/<id>/download_keys` and `/games/<id>/download_keys` @see https://itch.io/docs/api/serverside */
export const downloadKeysResponseSchema = z.looseObject({ download_key: downloadKeySchema });
/** `/api/1/KEY/game/<id>/purchases` and `/games/<id>/purchases`; `{}` for a claimed key. @see https://itch.io/docs/api/serverside */
export const purchasesResponseSchema = z.looseObject({ purchases: itchList(purchaseSchema) });
/** `/credentials/info` (and legacy `/api/1/KEY/credentials/info`): not wrapped. */
export const credentialsInfoResponseSchema = credentialInfoSchema;
/** `/profile` @see https://itch.io/docs/api/oauth */
export const profileResponseSchema = z.looseObject({ user: userSchema });
/** `/profile/games` @see https://itch.io/docs/api/oauth */
export const profileGamesResponseSchema = z.looseObject({ games: itchList(gameSchema) });
/** `/profile/collections` @see https://itch.io/docs/api/oauth */
export const profileCollectionsResponseSchema = z.looseObject({ collections: itchList(collectionSchema) });
/** `/profile/owned-keys`, one page of it. @see https://itch.io/docs/api/oauth */
export const profileOwnedKeysResponseSchema = z.looseObject({
  owned_keys: itchList(ownedKeySchema),
  page: z.int().check(z.positive()),
  per_page: z.int().check(z.positive()),
});
/**
 * `/games/<id>/ownership`: `{ "owns": true | false }` (payload not shown in itch.io's documentation; the
 * field as third-party clients of api.itch.io read it).
 * @see https://itch.io/docs/api/oauth
 */
export const gameOwnershipResponseSchema = z.looseObject({ owns: z.boolean() });
/** `/games/<id>/claimed-rewards` (payload not shown in itch.io's documentation). @see https://itch.io/docs/api/oauth */
export const gameClaimedRewardsResponseSchema = z.looseObject({ claimed_rewards: itchList(claimedRewardSchema) });

/**
 * `/wharf/latest?target=user/game&channel_name=…`: `{ "latest": "1.2.3" }`, without `latest`
 * when the channel has no build yet.
 * @see https://itch.io/docs/api/serverside
 */
export const wharfLatestResponseSchema = z.looseObject({ latest: z.optional(z.string()) });

export type UserSummary = z.infer<typeof userSummarySchema>;
export type User = z.infer<typeof userSchema>;
export type Earning = z.infer<typeof earningSchema>;
export type Game = z.infer<typeof gameSchema>;
export type DownloadKey = z.infer<typeof downloadKeySchema>;
export type Purchase = z.infer<typeof purchaseSchema>;
export type CredentialInfo = z.infer<typeof credentialInfoSchema>;
export type Collection = z.infer<typeof collectionSchema>;
export type OwnedKey = z.infer<typeof ownedKeySchema>;
export type ClaimedReward = z.infer<typeof claimedRewardSchema>;
export type ErrorsResponse = z.infer<typeof errorsResponseSchema>;
export type MeResponse = z.infer<typeof meResponseSchema>;
export type MyGamesResponse = z.infer<typeof myGamesResponseSchema>;
export type DownloadKeysResponse = z.infer<typeof downloadKeysResponseSchema>;
export type PurchasesResponse = z.infer<typeof purchasesResponseSchema>;
export type CredentialsInfoResponse = z.infer<typeof credentialsInfoResponseSchema>;
export type ProfileResponse = z.infer<typeof profileResponseSchema>;
export type ProfileGamesResponse = z.infer<typeof profileGamesResponseSchema>;
export type ProfileCollectionsResponse = z.infer<typeof profileCollectionsResponseSchema>;
export type ProfileOwnedKeysResponse = z.infer<typeof profileOwnedKeysResponseSchema>;
export type GameOwnershipResponse = z.infer<typeof gameOwnershipResponseSchema>;
export type GameClaimedRewardsResponse = z.infer<typeof gameClaimedRewardsResponseSchema>;
export type WharfLatestResponse = z.infer<typeof wharfLatestResponseSchema>;
