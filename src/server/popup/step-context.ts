/*
 * What the four steps of a popup login share (see `routes.ts`): their options, what is derived
 * from the options once, and the account a login counts against.
 */
import { buildAuthorizeUrl } from '../../core/authorize-url.js';
import { heldCollections } from './held-collection.js';
import type { PopupLogin, PopupRelay } from './relay.js';
import { authorizationPageSevers } from './severs.js';
import type { SeveredOpener } from './start-page.js';

/** The start page's request to bind its state. */
export interface BindRequest {
  state: string;
  /** The origin whose answer the start page received, or `null` when it had no opener. */
  opener: string | null;
  /** The binding the opener handed over (with an opener). */
  binding?: string | undefined;
  /** The person confirmed the code (without an opener, `severedOpener: 'confirm'`). */
  confirmed: boolean;
}

/** A token itch.io vouched for, or the answer that refused it. */
export type Verified = { user: unknown; scopes: string[]; owns?: Record<string, boolean> | undefined } | Response;

export interface PopupRoutesOptions {
  relay: PopupRelay;
  severedOpener: SeveredOpener;
  /** Shown where a person confirms a code. */
  siteName: string;
  /** Popup logins from plain-http pages that are not loopback. */
  allowHttp: boolean;
  /** itch.io, where the start page goes on to. */
  baseUrl: string;
  allowedOrigins: ReadonlySet<string> | undefined;
  /** The application's client id and redirect URI, when the site gave them: the start page starts no other. */
  clientId: string | undefined;
  redirectUri: string | undefined;
  /** Checks a deposit's token (the request is the deposit's, whose rate limit its check counts against). */
  verify(token: string, request: Request): Promise<Verified>;
  /** The client a request comes from, as the rate limits count it (`undefined`: not known). */
  clientOf(request: Request): string | undefined;
  logIn(login: PopupLogin, request: Request): Promise<Response>;
}

/** What the four steps share: the options, and what is derived from them once. */
export interface StepContext {
  options: PopupRoutesOptions;
  /** What is known by now of the authorization page's COOP (`undefined`: not yet). */
  severs: () => Promise<boolean | undefined>;
  /** Whether a page of `origin` may start popup logins here (the site's own, or listed). */
  mayOpen(origin: string, own: string): boolean;
  /** The authorization address a start page goes on to: the configured itch.io, nowhere else. */
  authorizeUrl(query: URLSearchParams, state: string): string;
  /** The collections held until there is something new to answer (`Prefer: wait=N`). */
  held: ReturnType<typeof heldCollections>;
}

/** The steps' context, derived once from `options`. */
export function stepContext(options: PopupRoutesOptions): StepContext {
  const { allowedOrigins } = options;
  return {
    options,
    severs: authorizationPageSevers(options.baseUrl),
    mayOpen: (origin, own) => origin === own || allowedOrigins?.has(origin) === true,
    authorizeUrl: (query, state) =>
      buildAuthorizeUrl({
        baseUrl: options.baseUrl,
        clientId: query.get('client_id') ?? '',
        redirectUri: query.get('redirect_uri') ?? '',
        scope: query.get('scope') ?? 'profile:me',
        state,
      }).href,
    held: heldCollections(options.relay.wake, options.clientOf),
  };
}

/** The itch.io account a verified login is of (its profile's `id`). */
export function accountOf(user: unknown): string {
  const id = (user as { id?: unknown } | null)?.id;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : 'unknown';
}
