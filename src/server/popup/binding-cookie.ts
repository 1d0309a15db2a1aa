/*
 * The binding cookie of a popup login: what the start page has the token endpoint set in the popup's
 * browser, first-party, once the page that opened the popup proved it started the login (or the
 * person confirmed a code), and what the popup's deposit must carry.
 *
 * One cookie per login, named after its state, so that logins in several tabs do not overwrite
 * each other's binding: `__Host-itch-oauth-popup-<12 characters of the state>` on https (Secure,
 * Path=/, no Domain: a sibling subdomain, a plain-http page or a script cannot set one; RFC 6265bis
 * section 4.1.3.2), `itch-oauth-popup-<…>` on plain http, which only loopback development uses.
 * Its value is set by the token endpoint at every binding, never taken from the request:
 *
 * - `o.<binding>.<opener origin, base64url>`: the opener handed the start page the login's
 *   binding (`p.` + SHA-256(binding) is the state), and its origin is the one the start page saw
 *   the answer come from. A deposit checks the hash again: no store is needed.
 * - `c.<secret>`: the person confirmed a code; the secret's SHA-256 waits in the relay's code binding.
 */
import { parse as parseCookies, serialize as serializeCookie } from 'hono/utils/cookie';
import { BASE64URL_256, POPUP_TTL_S } from './relay.js';

const SECURE_PREFIX = '__Host-itch-oauth-popup-';
const PLAIN_PREFIX = 'itch-oauth-popup-';

/** What a binding cookie says. */
export type Binding = { kind: 'opener'; binding: string; opener: string } | { kind: 'code'; secret: string };

/** The cookie's name for `state`, on https or on http. */
export function bindingCookieName(state: string, secure: boolean): string {
  return (secure ? SECURE_PREFIX : PLAIN_PREFIX) + state.slice(2, 14);
}

/** The `Set-Cookie` that binds `state` to this browser. */
export function bindingCookie(state: string, binding: Binding, secure: boolean): string {
  const value = binding.kind === 'opener' ? `o.${binding.binding}.${encodeOrigin(binding.opener)}` : `c.${binding.secret}`;
  return serializeCookie(bindingCookieName(state, secure), value, {
    path: '/',
    httpOnly: true,
    secure,
    sameSite: 'Lax',
    maxAge: POPUP_TTL_S,
  });
}

/** Binding cookies one browser may hold for this site before a bind ends the others. */
export const MAX_BINDINGS = 8;

/**
 * The `Set-Cookie`s that end every binding cookie `request` carries, when it carries
 * {@link MAX_BINDINGS} or more (none otherwise). A page that keeps sending its popup to new start
 * pages (any page on an allowed origin can) would otherwise grow this site's `Cookie` header past
 * what servers accept (8 to 16 KiB: every request of the player then fails) and push the site's
 * own cookies out of the browser's per-site limit. No person has eight popup logins under way.
 */
export function overflowingBindingCookies(request: Request): string[] {
  const names = Object.keys(parseCookies(request.headers.get('cookie') ?? '')).filter(
    (name) => name.startsWith(SECURE_PREFIX) || name.startsWith(PLAIN_PREFIX),
  );
  if (names.length < MAX_BINDINGS) return [];
  return names.map((name) =>
    serializeCookie(name, '', { path: '/', httpOnly: true, secure: name.startsWith(SECURE_PREFIX), sameSite: 'Lax', maxAge: 0 }),
  );
}

/** The `Set-Cookie` that ends the binding of `state` (after its deposit). */
export function clearBindingCookie(state: string, secure: boolean): string {
  return serializeCookie(bindingCookieName(state, secure), '', { path: '/', httpOnly: true, secure, sameSite: 'Lax', maxAge: 0 });
}

/**
 * The binding of `state` that this request carries: only the `__Host-` cookie unless `plain` (a
 * deposit from a plain-http page the handler accepts), where the plain name counts too.
 */
export function readBinding(request: Request, state: string, plain: boolean): Binding | undefined {
  const cookies = parseCookies(request.headers.get('cookie') ?? '');
  const value = cookies[bindingCookieName(state, true)] ?? (plain ? cookies[bindingCookieName(state, false)] : undefined);
  const [kind, first, second, extra] = (value ?? '').split('.');
  if (extra !== undefined || first === undefined || !BASE64URL_256.test(first)) return undefined;
  if (kind === 'c' && second === undefined) return { kind: 'code', secret: first };
  const opener = kind === 'o' && second !== undefined ? decodeOrigin(second) : undefined;
  return opener === undefined ? undefined : { kind: 'opener', binding: first, opener };
}

function encodeOrigin(origin: string): string {
  return btoa(origin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeOrigin(text: string): string | undefined {
  try {
    return /^[A-Za-z0-9_-]{1,400}$/.test(text) ? atob(text.replace(/-/g, '+').replace(/_/g, '/')) : undefined;
  } catch {
    return undefined;
  }
}
