import * as z from 'zod/mini';
import { count, id, itchDateSchema, itchList, userSchema, userSummarySchema } from './login-schemas.js';

/*
 * Zod schemas of the itch.io API's resources and response bodies: those of ./login-schemas.ts,
 * and the ones only the full client's other methods read.
 */
export {
  parseItchDate,
  itchDateSchema,
  userSummarySchema,
  userSchema,
  downloadKeySchema,
  credentialInfoSchema,
  errorsResponseSchema,
  downloadKeysResponseSchema,
  credentialsInfoResponseSchema,
  profileResponseSchema,
  gameOwnershipResponseSchema,
  type UserSummary,
  type User,
  type DownloadKey,
  type CredentialInfo,
  type ErrorsResponse,
  type DownloadKeysResponse,
  type CredentialsInfoResponse,
  type ProfileResponse,
  type GameOwnershipResponse,
} from './login-schemas.js';

/**
 * What a game earned in one currency. @see https://itch.io/docs/api/serverside
 * @group Schemas
 */
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
 * @group Schemas
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
 * What a purchase bought: a `game`, a `bundle` (then `game_id` lists the bundle's games) or a
 * `sub_product`; a string itch.io adds later is kept as it is.
 * @group Schemas
 */
export type PurchaseType = 'game' | 'bundle' | 'sub_product' | (string & {});

/**
 * A completed purchase. `donation` is true when no download key is tied to it. The current API
 * adds `quantity`, `status` and `purchase_type`; for a bundle purchase its `game_id` is the
 * list of the bundle's game ids.
 * @see https://itch.io/docs/api/serverside
 * @group Schemas
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
  purchase_type: z.optional(
    z.pipe(
      z.string(),
      z.transform((value: string) => value as PurchaseType),
    ),
  ),
});

/**
 * A collection of the user (profile/collections; fields not shown in itch.io's documentation).
 * @group Schemas
 */
export const collectionSchema = z.looseObject({
  id,
  title: z.optional(z.string()),
  games_count: z.optional(count),
  created_at: z.optional(itchDateSchema),
  updated_at: z.optional(itchDateSchema),
});

/**
 * A game the user purchased or claimed (profile/owned-keys; fields seen in real responses).
 * @group Schemas
 */
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

/**
 * A reward claimed by a buyer of one of the user's games (fields not shown in itch.io's documentation).
 * @group Schemas
 */
export const claimedRewardSchema = z.looseObject({
  id,
  reward_id: z.optional(id),
  purchase_id: z.optional(id),
  game_id: z.optional(id),
  title: z.optional(z.string()),
  created_at: z.optional(itchDateSchema),
});

/**
 * `/api/1/KEY/me` @see https://itch.io/docs/api/serverside
 * @group Schemas
 */
export const meResponseSchema = z.looseObject({ user: userSchema });
/**
 * `/api/1/KEY/my-games` @see https://itch.io/docs/api/serverside
 * @group Schemas
 */
export const myGamesResponseSchema = z.looseObject({ games: itchList(gameSchema) });
/**
 * `/api/1/KEY/game/<id>/purchases` and `/games/<id>/purchases`; `{}` for a claimed key. @see https://itch.io/docs/api/serverside
 * @group Schemas
 */
export const purchasesResponseSchema = z.looseObject({ purchases: itchList(purchaseSchema) });
/**
 * `/profile/games` @see https://itch.io/docs/api/oauth
 * @group Schemas
 */
export const profileGamesResponseSchema = z.looseObject({ games: itchList(gameSchema) });
/**
 * `/profile/collections` @see https://itch.io/docs/api/oauth
 * @group Schemas
 */
export const profileCollectionsResponseSchema = z.looseObject({ collections: itchList(collectionSchema) });
/**
 * `/profile/owned-keys`, one page of it. @see https://itch.io/docs/api/oauth
 * @group Schemas
 */
export const profileOwnedKeysResponseSchema = z.looseObject({
  owned_keys: itchList(ownedKeySchema),
  page: z.int().check(z.positive()),
  per_page: z.int().check(z.positive()),
});
/**
 * `/games/<id>/claimed-rewards` (payload not shown in itch.io's documentation). @see https://itch.io/docs/api/oauth
 * @group Schemas
 */
export const gameClaimedRewardsResponseSchema = z.looseObject({ claimed_rewards: itchList(claimedRewardSchema) });

/**
 * `/wharf/latest?target=user/game&channel_name=…`: `{ "latest": "1.2.3" }`, without `latest`
 * when the channel has no build yet.
 * @see https://itch.io/docs/api/serverside
 * @group Schemas
 */
export const wharfLatestResponseSchema = z.looseObject({ latest: z.optional(z.string()) });

/**
 * What a game earned in one currency, as `earningSchema` reads it.
 * @group Schemas
 */
export type Earning = z.infer<typeof earningSchema>;
/**
 * A game, as `gameSchema` reads it.
 * @group Schemas
 */
export type Game = z.infer<typeof gameSchema>;
/**
 * A completed purchase, as `purchaseSchema` reads it.
 * @group Schemas
 */
export type Purchase = z.infer<typeof purchaseSchema>;
/**
 * A collection of the user, as `collectionSchema` reads it.
 * @group Schemas
 */
export type Collection = z.infer<typeof collectionSchema>;
/**
 * A game the user purchased or claimed, as `ownedKeySchema` reads it.
 * @group Schemas
 */
export type OwnedKey = z.infer<typeof ownedKeySchema>;
/**
 * A reward claimed by a buyer, as `claimedRewardSchema` reads it.
 * @group Schemas
 */
export type ClaimedReward = z.infer<typeof claimedRewardSchema>;
/** @group Schemas */
export type MeResponse = z.infer<typeof meResponseSchema>;
/** @group Schemas */
export type MyGamesResponse = z.infer<typeof myGamesResponseSchema>;
/** @group Schemas */
export type PurchasesResponse = z.infer<typeof purchasesResponseSchema>;
/** @group Schemas */
export type ProfileGamesResponse = z.infer<typeof profileGamesResponseSchema>;
/** @group Schemas */
export type ProfileCollectionsResponse = z.infer<typeof profileCollectionsResponseSchema>;
/**
 * One page of the games the user purchased or claimed, as `profileOwnedKeysResponseSchema` reads it.
 * @group Schemas
 */
export type ProfileOwnedKeysResponse = z.infer<typeof profileOwnedKeysResponseSchema>;
/** @group Schemas */
export type GameClaimedRewardsResponse = z.infer<typeof gameClaimedRewardsResponseSchema>;
/** @group Schemas */
export type WharfLatestResponse = z.infer<typeof wharfLatestResponseSchema>;
