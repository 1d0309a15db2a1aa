/*
 * The token handler's options: what an app may pass to `createTokenHandler`. They are checked
 * once, at creation, by `readOptions` (./read-options.ts).
 */
import type { Storage } from 'unstorage';
import type { Refusal } from '../http/answers.js';
import type { FetchFunction } from '../itch-api/request.js';
import type { SetIfAbsent } from '../popup/set-if-absent.js';
import type { SeveredOpener } from '../popup/start-page.js';
import type { ClientAddress } from '../rate-limit/client-address.js';
import type { RateLimitOptions } from '../rate-limit/options.js';
import type { LoginContext, OnLoginResult } from './on-login.js';
import type { OwnershipOptions } from './ownership.js';

/**
 * The options of `createTokenHandler`: the OAuth application, the site's origin, what to do with a
 * verified login (`onLogin`), and the popup relay, ownership checks and rate limits.
 * @group Token endpoint
 */
export interface TokenHandlerOptions {
  /** Makes the app's session for a verified user. Errors it throws propagate to the caller. */
  onLogin(context: LoginContext): OnLoginResult | Promise<OnLoginResult>;
  /** The itch.io site (the authorization page, the legacy `/api/1/…`). Default `https://itch.io`. */
  baseUrl?: string | undefined;
  /**
   * Where the token is checked: `{apiBaseUrl}/credentials/info` and `{apiBaseUrl}/profile`.
   * Default `https://api.itch.io`, where itch.io serves them; an emulator's `apiUrl` in tests.
   */
  apiBaseUrl?: string | undefined;
  /**
   * Scopes the token must carry (a scope includes its subscopes: `profile` covers `profile:me`). `profile:me` is always required,
   * because the handler reads the profile. Default `profile:me`.
   */
  requiredScopes?: string | readonly string[] | undefined;
  /**
   * The id of the app's itch.io OAuth application (the number in its address on
   * https://itch.io/user/settings/oauth-apps; also the `oauth_application_id` that
   * `https://api.itch.io/credentials/info` reports for its tokens). Required: a token itch.io
   * issued to any other application is refused, the one defence of the implicit flow against
   * token injection (RFC 9700 section 4.6).
   */
  applicationId: number;
  /**
   * This site's public origin as the browser sees it, e.g. `https://example.com`: what counts as
   * same-origin, where the popup's start and callback pages are, and (on https) that cookies are
   * `__Host-`. Required anywhere but local development: it is never taken from `request.url` or
   * the `Host` header, which a TLS-ending proxy or the client sets. Without it, requests whose
   * address is on loopback (`127.0.0.1`, `localhost`) take that address's origin, and any other
   * request is refused (500, naming this option).
   */
  origin?: string | undefined;
  /**
   * Origins, besides `origin`, that may call the handler: for popup mode, the origins of framed
   * games (e.g. `https://html-classic.itch.zone`), which then collect their login with CORS.
   */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * Your OAuth application's client id: with it, the popup's start page starts logins for this
   * application only (another `client_id` is refused, 400). Default: any.
   */
  clientId?: string | undefined;
  /**
   * Your OAuth application's registered redirect URI (the callback page): with it, the popup's
   * start page sends itch.io this one only. Default: any on `origin` or `allowedOrigins`.
   */
  redirectUri?: string | undefined;
  /** The `fetch` to reach itch.io with. Default: the global one. */
  fetch?: FetchFunction | undefined;
  /** Largest accepted request body in bytes. Default 4096. */
  maxBodyBytes?: number | undefined;
  /** Time limit of each call to itch.io in milliseconds. Default 10 000. */
  timeoutMs?: number | undefined;
  /**
   * Where popup logins wait (ten minutes at most) until the page that opened the popup collects
   * them: any `unstorage` `Storage`, e.g. Redis, so that several server instances share it.
   * Default: in memory, this process only.
   *
   * Only logins that itch.io vouched for are kept per login; what requests without a login may
   * write (notices to an opener that cannot see its popup, code-confirmed bindings) goes to a
   * fixed number of slots (1,024), so no number of such requests grows the store past them.
   * "First deposit wins" is as atomic as `storeSetIfAbsent`: across instances on unstorage's
   * `redis` driver (a `SET NX`, detected) or with a `storeSetIfAbsent` given; on any other store a
   * lock in the process, exact for the in-memory store and for one single-threaded owner (a
   * Durable Object), not for several instances on an eventually consistent store.
   */
  store?: Storage | undefined;
  /**
   * The store's atomic "set if absent" (see {@link SetIfAbsent}), which makes "first deposit
   * wins" exact across instances. Default: detected from `store`: a `SET NX` on unstorage's
   * `redis` driver, else a lock in this process. Give one for another store that has such a step
   * (e.g. a KV store's conditional put, a SQL `INSERT … ON CONFLICT DO NOTHING`).
   */
  storeSetIfAbsent?: SetIfAbsent | undefined;
  /**
   * Turns the popup relay on (popup mode: `<itch-login-button mode="popup">`, `login()`, framed
   * games). `true`, or an object:
   * - `severedOpener`: what happens when the popup has no opener to check (a game whose page
   *   itch.io serves cross-origin-isolated): `'refuse'` (default) fails the login with
   *   `popup_unverified`; `'confirm'` asks the person to confirm a six-digit code that the game
   *   shows too (RFC 8628 section 5.4). Such a login has `startedFrom: null`: any page can show a
   *   person a code, so give it no more than a framed game's session.
   * - `siteName`: your site's name, which the code confirmation names (with its origin).
   * - `dangerouslyAllowHttp`: popup logins from plain-http pages that are not loopback. On plain
   *   http anyone on the network can plant the binding cookie and collect a victim's login: only
   *   for a network you trust.
   * Off (the default), popup deposits are refused (403), collections answer 404, and nothing is kept.
   */
  popup?: boolean | PopupOptions | undefined;
  /**
   * Told about every refusal, once, so that a refused login never comes with a silent server.
   * Default: one `console.warn` line with the status and the reason. The token, the verifier and
   * the binding cookie are never in it.
   */
  onError?: ((refusal: Refusal) => void) | undefined;
  /**
   * Checks, once per login and after the token is verified, which of `gameIds` the user owns, and
   * passes `owns` to `onLogin` (and in the default answer). With `apiKey` (your API key, kept on
   * the server) by `download_keys?user_id=`; without, by the token's `game:view:ownership` scope.
   * With `require: true`, a user who owns none is refused: 403 `{ "errors": [...], "code": "not_owner" }`.
   * itch.io failing during the check is a 502. See `OwnershipOptions`.
   */
  ownership?: OwnershipOptions | undefined;
  /**
   * The client's address of a request, for the per-client rate limits: from the socket (see the
   * deploy guide for `node:http`, Hono, Express, Deno and Bun), or from a header that only your
   * own proxy sets. `undefined` (or nothing) for a request whose address is not known: it meets
   * only the limits of all clients together. An IPv6 address counts by its /64 network.
   *
   * Default: on Cloudflare Workers (`navigator.userAgent` is `Cloudflare-Workers`) the
   * `CF-Connecting-IP` header, which Cloudflare's edge sets to the address it accepted the
   * connection from, whatever the client sent; anywhere else none, since there that header is
   * one any client can write.
   */
  clientAddress?: ClientAddress | undefined;
  /**
   * The rate limits, on by default: per client (by `clientAddress`) on tokens to check, on tokens
   * itch.io has not accepted, on popup start pages and bindings, and on popup collections, each in
   * a minute; and on the calls to itch.io per second, all clients together. The defaults are ones
   * that 30 players behind one shared address never meet; see {@link RateLimitOptions} for each
   * number and why. Over a per-client limit: 429 with `Retry-After`, no call to itch.io, nothing
   * stored; the browser reports `service_unavailable`. With `store`, the counts that protect
   * itch.io (tokens, those not accepted, calls) are kept there, so that every instance counts
   * together (an atomic `INCRBY` on Redis, an atomic increment in the Durable Object of
   * `itch-oauth-widget/cloudflare`); the popup routes' counts stay in each instance's memory,
   * since counting them in the store would cost it as much as the requests they limit. A store that
   * fails leaves each instance counting alone, with a warning, never refusing everyone nor no one.
   *
   * Besides, itch.io is asked once per token: checks of one token at the same time share one
   * call, and a token itch.io refused is refused again from memory for a minute.
   *
   * `false` turns the limits off (a site that limits in front of the handler); an object changes
   * some numbers (`Infinity`: that one off).
   */
  rateLimit?: false | RateLimitOptions | undefined;
}

/**
 * The `popup` option as an object.
 * @group Token endpoint
 */
export interface PopupOptions {
  severedOpener?: SeveredOpener | undefined;
  siteName?: string | undefined;
  dangerouslyAllowHttp?: boolean | undefined;
}

/** @group Token endpoint */
export const DEFAULT_MAX_BODY_BYTES = 4096;
