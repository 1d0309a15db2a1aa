/*
 * Who a request comes from, for the per-client limits: the `clientAddress` option, or on
 * Cloudflare Workers the address Cloudflare's edge saw, and the key a limit counts it under.
 */

/**
 * The token handler's `clientAddress` option: the address of the client that sent a request (as
 * the server's socket saw it, or as a proxy of yours wrote it), or `undefined` (or `null`) when it
 * is not known.
 * @group Token endpoint
 */
export type ClientAddress = (request: Request) => string | null | undefined;

/**
 * Whether this code runs on Cloudflare Workers: workerd answers `navigator.userAgent` with
 * exactly `Cloudflare-Workers` (Node ≥ 21, Deno and Bun answer their own names; Node 20 has no
 * `navigator`).
 * @see https://developers.cloudflare.com/workers/runtime-apis/web-standards/#navigatoruseragent
 */
export function onCloudflareWorkers(): boolean {
  const navigator = (globalThis as { navigator?: { userAgent?: unknown } }).navigator;
  return navigator?.userAgent === 'Cloudflare-Workers';
}

/**
 * The default of `clientAddress`. On Cloudflare Workers, the `CF-Connecting-IP` header: every
 * request reaches a Worker through Cloudflare's edge, which sets that header to the address it
 * accepted the connection from, replacing whatever the client sent, so the client cannot choose
 * it. Anywhere else the same header is one any client can write, so nothing is read: only the
 * limits that count every client together apply.
 * @see https://developers.cloudflare.com/fundamentals/reference/http-headers/#cf-connecting-ip
 */
export function defaultClientAddress(): ClientAddress | undefined {
  return onCloudflareWorkers() ? (request) => request.headers.get('cf-connecting-ip') : undefined;
}

/** Longest client key kept: an app's own `clientAddress` may return any string. */
const MAX_KEY_LENGTH = 100;

/**
 * The key an address is counted under: an IPv4 address as it is (also written as IPv6,
 * `::ffff:192.0.2.1`, as `node:http` reports it), an IPv6 address by its /64 network, which one
 * subscriber holds whole (RFC 6177), so that a client cannot take a fresh count per address;
 * anything else (an app's own key) as it is. `undefined` for an empty or missing address.
 * @see https://www.rfc-editor.org/rfc/rfc6177#section-3
 */
export function clientKey(address: string | null | undefined): string | undefined {
  if (typeof address !== 'string') return undefined;
  const trimmed = address.trim().toLowerCase();
  if (trimmed === '') return undefined;
  const mapped = /^(?:::ffff:|0:0:0:0:0:ffff:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(trimmed);
  if (mapped) return mapped[1];
  if (/^[0-9a-f:]+(?:%.*)?$/.test(trimmed) && trimmed.includes(':')) return ipv6Network(trimmed.replace(/%.*$/, ''));
  return trimmed.slice(0, MAX_KEY_LENGTH);
}

/** The first four groups of an IPv6 address, written out (`2001:db8::1` → `2001:db8:0:0::/64`). */
function ipv6Network(address: string): string {
  const [head = '', tail] = address.split('::', 2) as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
