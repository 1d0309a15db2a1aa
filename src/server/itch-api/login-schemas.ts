import * as z from 'zod/mini';

/*
 * Zod schemas of the answers a login's verification reads (credentials/info, profile, the
 * ownership checks, the error body), and the pieces every schema is built from. The other
 * endpoints' schemas are in ./schemas.ts, which only the full client imports, so that a bundle
 * of the token handler carries these alone.
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
 * @group Schemas
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

/**
 * An itch.io date string, parsed to a `Date`.
 * @group Schemas
 */
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
export function itchList<T extends z.ZodMiniType>(item: T) {
  const emptyObjectToList = (value: unknown): unknown =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0 ? [] : value;
  return z.pipe(z.transform(emptyObjectToList), z.array(item));
}

export const id = z.int().check(z.positive());
export const count = z.int().check(z.nonnegative());

/**
 * A user as it appears inside another resource (e.g. the developer of a game).
 * @group Schemas
 */
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
 * @group Schemas
 */
export const userSchema = z.extend(userSummarySchema, {
  gamer: z.boolean(),
  developer: z.boolean(),
  press_user: z.boolean(),
});

/**
 * A download key, from a purchase or a claim.
 * @see https://itch.io/docs/api/serverside
 * @group Schemas
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
 * What credentials/info answers: the scopes, `expires_at` for a JWT, and (seen in real
 * responses for OAuth access tokens) the `oauth_application_id` the token was issued to.
 * @see https://itch.io/docs/api/serverside
 * @group Schemas
 */
export const credentialInfoSchema = z.looseObject({
  scopes: itchList(z.string()),
  expires_at: z.optional(itchDateSchema),
  /** `"key"` or `"jwt"` in current responses. */
  type: z.optional(z.string()),
  oauth_application_id: z.optional(id),
});

/**
 * The body of every error answer: `{ "errors": ["..."] }`, sometimes with `details`.
 * @see https://itch.io/docs/api/serverside
 * @group Schemas
 */
export const errorsResponseSchema = z.looseObject({
  errors: z.array(z.string()).check(z.minLength(1)),
  details: z.optional(z.string()),
});

/**
 * `/api/1/KEY/game/<id>/download_keys` and `/games/<id>/download_keys` @see https://itch.io/docs/api/serverside
 * @group Schemas
 */
export const downloadKeysResponseSchema = z.looseObject({ download_key: downloadKeySchema });
/**
 * `/credentials/info` (and legacy `/api/1/KEY/credentials/info`): not wrapped.
 * @group Schemas
 */
export const credentialsInfoResponseSchema = credentialInfoSchema;
/**
 * `/profile` @see https://itch.io/docs/api/oauth
 * @group Schemas
 */
export const profileResponseSchema = z.looseObject({ user: userSchema });
/**
 * `/games/<id>/ownership`: `{ "owns": true | false }` (payload not shown in itch.io's documentation; the
 * field as third-party clients of api.itch.io read it).
 * @see https://itch.io/docs/api/oauth
 * @group Schemas
 */
export const gameOwnershipResponseSchema = z.looseObject({ owns: z.boolean() });
/**
 * A user inside another resource, as `userSummarySchema` reads it.
 * @group Schemas
 */
export type UserSummary = z.infer<typeof userSummarySchema>;
/**
 * A public profile, as `userSchema` reads it.
 * @group Schemas
 */
export type User = z.infer<typeof userSchema>;
/**
 * A download key, as `downloadKeySchema` reads it.
 * @group Schemas
 */
export type DownloadKey = z.infer<typeof downloadKeySchema>;
/**
 * A credential's scopes and expiry, as `credentialInfoSchema` reads it.
 * @group Schemas
 */
export type CredentialInfo = z.infer<typeof credentialInfoSchema>;
/** @group Schemas */
export type ErrorsResponse = z.infer<typeof errorsResponseSchema>;
/** @group Schemas */
export type DownloadKeysResponse = z.infer<typeof downloadKeysResponseSchema>;
/** @group Schemas */
export type CredentialsInfoResponse = z.infer<typeof credentialsInfoResponseSchema>;
/** @group Schemas */
export type ProfileResponse = z.infer<typeof profileResponseSchema>;
/**
 * Whether the user owns a game, as `gameOwnershipResponseSchema` reads it.
 * @group Schemas
 */
export type GameOwnershipResponse = z.infer<typeof gameOwnershipResponseSchema>;
