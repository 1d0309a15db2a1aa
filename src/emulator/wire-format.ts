import type { UserRecord } from './seed.js';

/**
 * `YYYY-MM-DD HH:MM:ss` in UTC, the date format of the server-side API (`/api/1/…`).
 * @see https://itch.io/docs/api/serverside
 */
export function formatServersideDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * RFC 3339 in UTC with nanoseconds (`2022-03-08T13:41:10.000000000Z`), the date format recorded
 * from itch.io's OAuth-scoped endpoints (`/api/profile…`, fixtures `TheArtfulBodger__wyvern__*`).
 */
export function formatOAuthApiDate(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

/** An amount in a currency's minor unit, formatted for display: `$50.47`, `€2.30`. */
export function formatMoney(minorUnits: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minorUnits / 10 ** digits);
}

/** The profile address of a user: the seed's `url`, or `https://<username>.itch.io`. */
export function profileUrl(user: UserRecord): string {
  return user.url ?? `https://${user.username.toLowerCase()}.itch.io`;
}

/**
 * The public profile of a user (as `/profile` and `/users/ID` answer it). `display_name` is the username when the
 * user has none; `cover_url` is left out when the user has no avatar, as itch.io does.
 */
export function publicUser(user: UserRecord): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name ?? user.username,
    gamer: user.gamer,
    developer: user.developer,
    press_user: user.press_user,
    url: profileUrl(user),
    ...(user.cover_url === undefined ? {} : { cover_url: user.cover_url }),
  };
}
