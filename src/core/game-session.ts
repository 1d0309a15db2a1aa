/*
 * A framed game's login, kept: the game token that `createSessions().onLogin` answers a login
 * started from a game's origin, held in memory (and in sessionStorage where the frame may use it,
 * for a reload), renewed before it expires, and added as `Authorization: DPoP` (RFC 9449 section
 * 7.1) with a proof of each request to the game's calls to its own site only. The token is bound
 * to a key pair made here, which the page cannot export (./dpop-proof.ts): itch.io serves every
 * game from one origin, whose other games can read this one's storage, and a token read there is
 * worthless without the key. The game reads the player from the session, never the token:
 * nothing here writes it to localStorage, a cookie, the DOM, an event or a log.
 */
import { dpopProof, keyStore, newKeyPair } from './dpop-proof.js';
import { ItchOAuthError } from './errors.js';
import type { ShowContinue } from './ask-for-click.js';
import { httpUrl, loginWith, preparePopupLogin, type LoginOptions } from './login.js';
import type { LoginAnswer } from './login-answer.js';

/**
 * `login()`'s options (but `signal`, which each call gives), and where the session renews.
 * @group Framed games
 */
export interface GameSessionOptions extends Omit<LoginOptions, 'signal'> {
  /** The site's renewal URL, the one that answers with `sessions.renew(request)`, e.g. `https://your.site/api/renew`. */
  renew: string;
  /**
   * Other origins that receive the game token, e.g. `['https://api.your.site']`. The backend's
   * origin always does; every other address gets the request as the game wrote it, without it.
   */
  apiOrigins?: readonly string[] | undefined;
  /** The site's logout URL (`sessions.logout(request)`): `logout()` revokes the session there too. */
  logout?: string | undefined;
  /** Called when the site refuses to renew the token (logged out elsewhere, past its `maxAge`): show the login again. */
  onSignedOut?: (() => void) | undefined;
}

/**
 * A framed game's login: `gameSession(options)`.
 * @group Framed games
 */
export interface GameSession {
  /** The player, as the login answered (and the game token holds) them; `undefined` when signed out. */
  readonly user: LoginAnswer['user'] | undefined;
  /** What the player owns (`{ [gameId]: boolean }`), with the token handler's `ownership` option. */
  readonly owns: LoginAnswer['owns'];
  /** Whether a game token is held. */
  readonly signedIn: boolean;
  /**
   * After a reload: takes the token kept in this frame's sessionStorage, and its key from
   * IndexedDB, and renews it at once (which also asks the site whether it is still valid).
   * `false` when there is none, the site refused it, or the frame may not use sessionStorage or
   * IndexedDB (some browsers refuse them to a third-party frame: the login then lasts the page);
   * never throws. Any game on the same origin can replace what is kept: show the player's name.
   */
  restore(): Promise<boolean>;
  /**
   * Logs in as `login()` does (popup by default, the Continue button when the click's activation
   * is gone), then keeps the game token of the answer.
   *
   * @throws ItchOAuthError as `login()`; `config_invalid` when the site answered no game token
   *   (the game's origin is not in `createSessions({ allowedOrigins })`).
   */
  login(options?: { signal?: AbortSignal | undefined }): Promise<{ user: LoginAnswer['user']; owns?: LoginAnswer['owns'] }>;
  /**
   * `fetch()`, with `Authorization: DPoP <game token>` and a `DPoP` proof of the request on
   * requests to the backend's origin and to `apiOrigins` only (and then without following redirects); renews the token when it is
   * about to expire, and once more on a 401. Any other address gets the request unchanged.
   */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Forgets the token here (and, with the `logout` option, revokes the session on the site). */
  logout(): Promise<void>;
}

/** The claims of a game token that the session reads (signed, not secret: the game may read them). */
interface Claims {
  exp: number;
  iat: number;
  user: LoginAnswer['user'];
  owns?: LoginAnswer['owns'];
  /** The thumbprint of the key the token is bound to (RFC 9449 section 6.1): its name in IndexedDB. */
  cnf?: { jkt?: string };
}

/** Renew this long before expiry, at most (a quarter of a shorter lifetime). */
const RENEW_AHEAD_MS = 60_000;
/** After a renewal that could not reach the site, try again this much later. */
const RETRY_MS = 30_000;

function claimsOf(token: string): Claims | undefined {
  try {
    const bytes = Uint8Array.from(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as Claims;
    return typeof claims.exp == 'number' && typeof claims.iat == 'number' && Object(claims.user) === claims.user ? claims : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A framed game's login, kept and used: `restore()` after a reload, `login()` from a click,
 * `fetch()` for the game's calls to its site (the game token added, renewed when needed),
 * `user`, `owns`, `signedIn`, `logout()`.
 *
 * @example
 * const session = ItchOAuth.gameSession({ clientId, redirectUri, backend: `${SITE}/auth/itch`, renew: `${SITE}/api/renew` });
 * if (await session.restore()) greet(session.user);
 * loginButton.onclick = () => session.login().then(({ user }) => greet(user));
 * const saved = await session.fetch(`${SITE}/api/progress`).then((answer) => answer.json());
 * @throws ItchOAuthError `config_invalid` when `backend`, `renew` or an `apiOrigins` entry is not
 *   an http(s) URL, or `renew` is on an origin that does not receive the token.
 * @group Framed games
 */
export function gameSession(options: GameSessionOptions, showCode: (code?: string) => void, showContinue: ShowContinue): GameSession {
  const trusted = [
    httpUrl(options.backend ?? '', 'backend').origin,
    ...(options.apiOrigins ?? []).map((origin) => httpUrl(origin, 'apiOrigins').origin),
  ];
  const renewUrl = httpUrl(options.renew, 'renew');
  if (!trusted.includes(renewUrl.origin))
    throw new ItchOAuthError('config_invalid', `renew (${renewUrl}) must be on the backend's origin or one of apiOrigins`);
  const { token, claims, skew, forget, keep, restore, send, renew } = tokenKeeper(renewUrl, options.onSignedOut);
  // The popup's pair, ready before the click (a frame under a cross-origin-isolated page sees no popup to send it to).
  void preparePopupLogin();

  return {
    get user() {
      return claims()?.user;
    },
    get owns() {
      return claims()?.owns;
    },
    get signedIn() {
      return token() !== undefined;
    },
    async restore() {
      return (await restore()) && (await renew()) !== false;
    },
    async login({ signal } = {}) {
      // Made while the popup opens (which must happen within the click, before any await).
      const pair = newKeyPair();
      const { response, nonce } = await loginWith(
        {
          mode: 'popup',
          ...options,
          signal,
          dpop: async (url) => dpopProof(await pair, 'POST', url, undefined, skew()),
        },
        showCode,
        showContinue,
      );
      const answer = response as Partial<LoginAnswer> | null;
      if (typeof answer?.gameToken != 'string')
        throw new ItchOAuthError(
          'config_invalid',
          "the site answered no gameToken: add this page's origin to createSessions({ allowedOrigins })",
        );
      await keep(answer.gameToken, await pair, nonce);
      return answer.owns === undefined ? { user: answer.user! } : { user: answer.user!, owns: answer.owns };
    },
    async fetch(input, init) {
      const request = new Request(input, init);
      if (token() === undefined || !trusted.includes(new URL(request.url).origin)) return fetch(request);
      const again = request.clone();
      // Less than the renewal's margin left (a page asleep past its timer): renew first.
      if (claims()!.exp * 1000 - Date.now() < RENEW_AHEAD_MS / 2) await renew();
      if (token() === undefined) return fetch(request);
      const answer = await send(request);
      if (answer.status != 401 || !(await renew())) return answer;
      return send(again);
    },
    async logout() {
      const request = options.logout === undefined ? undefined : new Request(options.logout, { method: 'POST' });
      // Revoked with the token and its key before they are forgotten.
      const revoked =
        token() === undefined || request === undefined || !trusted.includes(new URL(request.url).origin) ? undefined : send(request);
      await forget();
      await revoked?.catch(() => undefined);
    },
  };
}

/** A step on this frame's sessionStorage, `null` where the browser refuses it (it throws in some third-party frames). */
function storage(act: (store: Storage) => unknown): string | null {
  try {
    return act(sessionStorage) as string | null;
  } catch {
    return null;
  }
}

/**
 * Each origin's last `DPoP-Nonce` (RFC 9449 section 9), in memory and in this frame's sessionStorage
 * under `key` (no secret), so that the next page's first proofs carry it: none is a 401 and a resend.
 */
function nonceBook(key: string) {
  const of: Record<string, string> = {};
  storage((store) => Object.assign(of, JSON.parse(store.getItem(key)!)));
  /** The nonce of `url`'s origin, after noting `nonce` as its new one when given. */
  return (url: string, nonce?: string | null) => {
    const { origin } = new URL(url);
    if (nonce) {
      of[origin] = nonce;
      storage((store) => store.setItem(key, JSON.stringify(of)));
    }
    return of[origin];
  };
}

/**
 * The game token of one renewal URL and its DPoP key: the token held in memory and in this frame's
 * sessionStorage, the key in memory and in IndexedDB under its thumbprint (where they may be used:
 * a framed game's storage may throw in some browsers, and the login then lives in memory only),
 * renewed before it expires, and sent as `Authorization: DPoP` with a proof of each request.
 */
function tokenKeeper(renewUrl: URL, onSignedOut: (() => void) | undefined) {
  const key = 'itch-oauth-game-token ' + renewUrl;
  let token: string | undefined;
  let claims: Claims | undefined;
  let keys: CryptoKeyPair | undefined;
  /** Seconds the site's clock is ahead of this page's, as the last token's `iat` said. */
  let skew = 0;
  const nonces = nonceBook(key + ' nonces');
  let timer: ReturnType<typeof setTimeout> | undefined;
  let renewing: Promise<boolean | undefined> | undefined;

  const forget = () => {
    const jkt = claims?.cnf?.jkt;
    token = claims = keys = undefined;
    clearTimeout(timer);
    storage((store) => store.removeItem(key));
    return jkt ? keyStore((store) => store.delete(jkt), true) : undefined;
  };
  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void renew(), ms);
  };
  /** Keeps a token (at login with its key and the site's nonce); its lifetime counts from now (a page's clock may be off). */
  const keep = async (fresh: unknown, pair?: CryptoKeyPair, nonce?: string | null) => {
    const read = typeof fresh == 'string' ? claimsOf(fresh) : undefined;
    const jkt = read?.cnf?.jkt;
    if (read === undefined || !jkt)
      throw new ItchOAuthError('invalid_response', "the site answered no game token bound to this page's key");
    if (pair) {
      // A login replaces the one before, with its key.
      if (claims?.cnf?.jkt != jkt) await forget();
      keys = pair;
      await keyStore((store) => store.put(pair, jkt), true);
    }
    token = fresh as string;
    claims = read;
    skew = read.iat - Date.now() / 1000;
    storage((store) => store.setItem(key, fresh as string));
    nonces(renewUrl.href, nonce);
    const lifetime = (read.exp - read.iat) * 1000;
    schedule(lifetime - Math.min(RENEW_AHEAD_MS, lifetime / 4));
  };
  /** The token kept by an earlier page of this frame, taken back with its key (not yet renewed). */
  const restore = async () => {
    const stored = storage((store) => store.getItem(key));
    const read = stored ? claimsOf(stored) : undefined;
    const jkt = read?.cnf?.jkt;
    const pair = jkt ? await keyStore<CryptoKeyPair>((store) => store.get(jkt)) : undefined;
    if (!pair?.privateKey) return false;
    token = stored!;
    claims = read;
    keys = pair;
    return true;
  };
  /** The request with the token and its proof, not following redirects (older browsers kept `Authorization` across origins). */
  const send = async (request: Request, retry = 1): Promise<Response> => {
    const again = request.clone();
    const headers = new Headers(request.headers);
    headers.set('Authorization', 'DPoP ' + token);
    headers.set('DPoP', await dpopProof(keys!, request.method, request.url, token, skew, nonces(request.url)));
    const answer = await fetch(new Request(request, { headers, redirect: 'error' }));
    nonces(request.url, answer.headers.get('DPoP-Nonce'));
    return retry && /use_dpop_nonce/.test(String(answer.headers.get('WWW-Authenticate'))) ? send(again, 0) : answer;
  };
  /** `true` renewed, `false` refused (signed out), `undefined` the site could not be reached. */
  const renew = (): Promise<boolean | undefined> =>
    (renewing ??= (async () => {
      const held = token;
      if (held === undefined) return false;
      try {
        const answer = await send(new Request(renewUrl, { method: 'POST', cache: 'no-store' }));
        if (held !== token) return token !== undefined;
        if (answer.status == 401 || answer.status == 403) {
          await forget();
          onSignedOut?.();
          return false;
        }
        if (!answer.ok) throw answer.status;
        await keep(((await answer.json()) as { gameToken?: unknown }).gameToken);
        return true;
      } catch {
        if (held === token) schedule(RETRY_MS);
        return undefined;
      }
    })().finally(() => (renewing = undefined)));

  return { token: () => token, claims: () => claims, skew: () => skew, forget, keep, restore, send, renew };
}
