/*
 * The token handler's options: what an app may pass to `createTokenHandler`, and their checks and
 * defaults, once, at creation.
 */
import type { Storage } from 'unstorage';
import { DEFAULT_BASE_URL } from '../../core/authorize-url.js';
import { parseScopes } from '../../core/scopes.js';
import { assertApiBaseUrl } from '../client-arguments.js';
import { DEFAULT_API_BASE_URL } from '../login-client.js';
import type { OwnershipOptions, Owns } from '../ownership.js';
import type { SetIfAbsent } from '../popup/set-if-absent.js';
import type { SeveredOpener } from '../popup/start-page.js';
import { ownOrigin, type OwnOrigin } from '../own-origin.js';
import { parseAllowedOrigins } from '../request-guard.js';
import type { FetchFunction } from '../request.js';
import type { User } from '../login-schemas.js';
import type { Refusal } from './answers.js';

/** What `onLogin` learns about a verified login. */
export interface LoginContext {
  /** The itch.io profile of the user (from `{apiBaseUrl}/profile`). */
  user: User;
  /** The scopes the access token carries (from credentials/info). */
  scopes: string[];
  /** The access token, for the app's own later API calls. Keep it server-side. */
  token: string;
  /** The browser's request, e.g. to read its cookies. */
  request: Request;
  /**
   * With the `ownership` option: whether the user owns each of its games, checked with itch.io
   * during this login (`{ 2001: true }`). Absent without the option.
   */
  owns?: Owns | undefined;
  /**
   * The origin the login was started from: for a token POSTed directly (redirect mode), that
   * request's `Origin` (the site's own, or one of `allowedOrigins`; `null` without one), which
   * only a browser guarantees: anyone holding a token of your application can send any `Origin`
   * with it, so register only your site's callback page on that application; for a popup
   * login, the opener origin that the start page confirmed when it bound the login to the
   * browser; `null` when the person confirmed a code instead (`severedOpener: 'confirm'`).
   * Decide what kind of session to give from this, never from headers of the request that
   * collects the login: whoever holds a popup's verifier can send any headers.
   */
  startedFrom: string | null;
}

/**
 * What `onLogin` may return: nothing (answer 200 `{ user }`), headers to add to that answer
 * (e.g. `Set-Cookie`), or a whole `Response` to answer with instead.
 */
export type LoginResult = Response | { headers?: HeadersInit | undefined } | undefined | void;

export interface TokenHandlerOptions {
  /** Makes the app's session for a verified user. Errors it throws propagate to the caller. */
  onLogin(context: LoginContext): LoginResult | Promise<LoginResult>;
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
}

/** The `popup` option as an object. */
export interface PopupOptions {
  severedOpener?: SeveredOpener | undefined;
  siteName?: string | undefined;
  dangerouslyAllowHttp?: boolean | undefined;
}

export const DEFAULT_MAX_BODY_BYTES = 4096;

/** The options, checked and with their defaults. */
export interface HandlerSettings {
  onLogin: TokenHandlerOptions['onLogin'];
  baseUrl: string;
  apiBaseUrl: string;
  requiredScopes: string[];
  applicationId: number;
  /** The server's own origin for a request (see own-origin.ts). */
  ownOrigin: OwnOrigin;
  allowedOrigins: ReadonlySet<string> | undefined;
  clientId: string | undefined;
  redirectUri: string | undefined;
  maxBodyBytes: number;
  popup: PopupSettings | undefined;
  onError: (refusal: Refusal) => void;
}

/** The `popup` option, with its defaults. */
export interface PopupSettings {
  severedOpener: SeveredOpener;
  siteName: string;
  dangerouslyAllowHttp: boolean;
}

/**
 * Checks the options and fills in their defaults.
 * @throws TypeError naming the option that is malformed.
 */
export function readOptions(options: TokenHandlerOptions): HandlerSettings {
  if (typeof options.onLogin !== 'function') throw new TypeError('onLogin must be a function');
  const baseUrl = assertApiBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL, 'baseUrl');
  const apiBaseUrl = assertApiBaseUrl(options.apiBaseUrl ?? DEFAULT_API_BASE_URL, 'apiBaseUrl');
  const requiredScopes = parseScopes([...parseScopes(options.requiredScopes ?? []), 'profile:me']);
  const allowedOrigins = options.allowedOrigins === undefined ? undefined : parseAllowedOrigins(options.allowedOrigins);
  const origin = ownOrigin(options.origin, 'createTokenHandler');
  const { clientId, redirectUri } = options;
  if (clientId !== undefined && (typeof clientId !== 'string' || clientId === ''))
    throw new TypeError('clientId must be a non-empty string');
  if (redirectUri !== undefined && (typeof redirectUri !== 'string' || !URL.canParse(redirectUri)))
    throw new TypeError('redirectUri must be an absolute URL, the redirect URI registered for your OAuth application');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) throw new TypeError('maxBodyBytes must be a positive integer');
  const { applicationId } = options;
  if (!Number.isSafeInteger(applicationId) || applicationId <= 0) {
    throw new TypeError(
      'applicationId is required: the positive integer id of your itch.io OAuth application (the number in its address on ' +
        'https://itch.io/user/settings/oauth-apps, or the oauth_application_id that https://api.itch.io/credentials/info reports for its tokens). ' +
        'Without it, a token itch.io issued to any other application would log in.',
    );
  }
  const popup = readPopupOption(options.popup);
  const onError =
    options.onError ??
    ((refusal: Refusal) =>
      console.warn(`itch-oauth-widget: refused (${refusal.status}${refusal.code ? ` ${refusal.code}` : ''}): ${refusal.message}`));
  if (typeof onError !== 'function') throw new TypeError('onError must be a function');
  return {
    onLogin: options.onLogin,
    baseUrl,
    apiBaseUrl,
    requiredScopes,
    applicationId,
    ownOrigin: origin,
    allowedOrigins,
    clientId,
    redirectUri,
    maxBodyBytes,
    popup,
    onError,
  };
}

/** What `popup` asks for, with its defaults, or `undefined` when the relay is off. */
function readPopupOption(popup: TokenHandlerOptions['popup']): PopupSettings | undefined {
  if (popup === undefined || popup === false) return undefined;
  const object: PopupOptions = popup === true ? {} : popup;
  if (typeof object !== 'object' || object === null)
    throw new TypeError('popup must be true, false, or { severedOpener?, siteName?, dangerouslyAllowHttp? }');
  const unknown = Object.keys(object).filter((key) => !['severedOpener', 'siteName', 'dangerouslyAllowHttp'].includes(key));
  if (unknown.length > 0)
    throw new TypeError(`popup has no option ${unknown.join(', ')} (it takes severedOpener, siteName, dangerouslyAllowHttp)`);
  const { severedOpener = 'refuse', siteName = 'This site', dangerouslyAllowHttp = false } = object;
  if (severedOpener !== 'confirm' && severedOpener !== 'refuse') throw new TypeError('popup.severedOpener must be "confirm" or "refuse"');
  if (typeof siteName !== 'string' || siteName.trim() === '' || siteName.length > 100)
    throw new TypeError('popup.siteName must be a name of 1 to 100 characters');
  if (typeof dangerouslyAllowHttp !== 'boolean') throw new TypeError('popup.dangerouslyAllowHttp must be a boolean');
  return { severedOpener, siteName, dangerouslyAllowHttp };
}
