/*
 * The checks of what callers pass to the itch.io client (ids, e-mail addresses, keys, time
 * limits, itch.io's addresses) and the query parameters made from them. Each throws a TypeError
 * that names the argument, before anything is sent.
 */
import type { DownloadKeyLookup, PurchaseLookup, WharfChannel } from './client-types.js';

/** The query of `wharfLatest`, its arguments checked. */
export function wharfQuery(channel: WharfChannel): Record<string, string> {
  const { target, channelName } = (channel ?? {}) as Partial<WharfChannel>;
  if (typeof target !== 'string' || !/^[^/\s]+\/[^/\s]+$/.test(target)) {
    throw new TypeError('wharfLatest() needs target as "user/game", as in https://user.itch.io/game');
  }
  if (typeof channelName !== 'string' || !/^[\x21-\x7e]+$/.test(channelName)) {
    throw new TypeError('wharfLatest() needs channelName, a butler channel such as "windows-beta"');
  }
  return { target, channel_name: channelName };
}

const QUERY_NAMES = { downloadKey: 'download_key', userId: 'user_id', email: 'email' } as const;
type LookupField = keyof typeof QUERY_NAMES;

/**
 * Turns a lookup into query parameters, checking each given field and that at least one is.
 * @see https://itch.io/docs/api/serverside
 */
export function lookupQuery(
  lookup: DownloadKeyLookup | PurchaseLookup,
  method: string,
  fields: readonly LookupField[],
): Record<string, string> {
  if (typeof lookup !== 'object' || lookup === null) throw new TypeError(`${method}() needs a lookup object`);
  const given = lookup as Partial<Record<LookupField, unknown>>;
  const query: Record<string, string> = {};
  for (const field of fields) {
    const value = given[field];
    if (value === undefined) continue;
    if (field === 'userId') query[QUERY_NAMES[field]] = String(assertId(value, 'userId'));
    else if (field === 'email') query[QUERY_NAMES[field]] = assertEmail(value);
    else query[QUERY_NAMES[field]] = assertToken(value, 'downloadKey');
  }
  if (Object.keys(query).length === 0) {
    throw new TypeError(`${method}() needs at least one of ${fields.join(', ')}`);
  }
  return query;
}

/** A positive integer id. */
export function assertId(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`${name} must be a positive integer, got ${typeof value === 'number' ? value : typeof value}`);
  }
  return value;
}

/** An e-mail address (the shape only). */
export function assertEmail(value: unknown): string {
  if (typeof value !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(value)) {
    throw new TypeError('email must be an e-mail address such as "user@example.com"');
  }
  return value;
}

/** A key or token: visible ASCII characters. */
export function assertToken(value: unknown, name: string): string {
  if (typeof value !== 'string' || !/^[\x21-\x7e]+$/.test(value)) {
    throw new TypeError(`${name} must be a non-empty string of visible ASCII characters`);
  }
  return value;
}

/** A time limit in milliseconds that a timer can wait. */
export function assertTimeout(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 2_147_483_647) {
    throw new TypeError(`${name} must be a positive number of milliseconds (at most 2147483647)`);
  }
  return value;
}

/**
 * Checks an address of itch.io (`baseUrl` or `apiBaseUrl`): https, or http on a loopback host (an emulator), without
 * credentials, query or fragment. Returns it without a trailing slash.
 * @throws TypeError naming the problem.
 */
export function assertApiBaseUrl(value: string, name = 'baseUrl'): string {
  if (typeof value !== 'string' || !URL.canParse(value))
    throw new TypeError(`${name} must be an absolute URL, got ${JSON.stringify(value)}`);
  const url = new URL(value);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new TypeError(`${name} must be https (http only on a loopback host), got ${JSON.stringify(url.protocol)} for ${url.hostname}`);
  }
  if (url.username !== '' || url.password !== '') throw new TypeError(`${name} must not carry credentials`);
  if (url.search !== '' || url.hash !== '') throw new TypeError(`${name} must not carry a query or fragment`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
