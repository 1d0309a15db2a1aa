/**
 * A local itch.io for development and tests: the OAuth authorization page and both API
 * families, in memory, seeded from JSON.
 *
 * ## Endpoints
 *
 * - `GET /user/oauth`: the authorization page (https://itch.io/docs/api/oauth); see {@link authorizationPages}.
 * - `/api/1/<KEY>/…`: the server-side API (https://itch.io/docs/api/serverside), dates `YYYY-MM-DD HH:MM:ss` (UTC);
 *   `<KEY>` is an API key, or `key` / `jwt` with `Authorization: Bearer …`.
 * - `/api/…`: what itch.io serves on `https://api.itch.io/…` (the emulator's `apiUrl`): the
 *   OAuth-scoped endpoints, credentials/info and the current server-side API, with
 *   `Authorization: Bearer <token, API key or JWT>`, dates RFC 3339; `wharf/latest` without one.
 * - `GET /`: a page listing the OAuth applications.
 *
 * Every API endpoint answers GET, and POST with a form-encoded body.
 *
 * ## Errors
 *
 * An API error is always `{ "errors": ["<message>"] }` with one of these statuses:
 *
 * | status | when | message |
 * |---|---|---|
 * | 400 | a required parameter is missing (download_keys: `download_key`, `user_id` or `email`; purchases: `email` or `user_id`) | `missing parameter: one of … is required` |
 * | 400 | `user_id` or `page` is not a positive integer | `user_id must be a positive integer` |
 * | 400 | download_keys: the key is unknown, revoked, or for another game | `invalid download key` |
 * | 401 | no credential: no `Authorization: Bearer` header on `/api/1/key/`, `/api/1/jwt/` or `/api/…` | `authentication required` |
 * | 401 | unknown or revoked API key or access token | `invalid key` |
 * | 401 | unknown JWT / JWT at or past its `expires_at` | `invalid jwt` / `jwt expired` |
 * | 403 | the credential's scopes do not include the endpoint's | ``api key does not permit `<scope>` `` (``jwt does not permit …`` for a JWT) |
 * | 403 | download_keys or purchases for a game the caller did not upload and may not edit | `you do not have edit access to this game` |
 * | 403 | ownership for a game not uploaded by the OAuth application's creator | `ownership can only be checked for games of the OAuth application's creator` |
 * | 403 | claimed-rewards for a game the user does not develop | `claimed rewards can only be listed for games you develop` |
 * | 404 | the game id is unknown or not an integer | `invalid game` |
 * | 404 | download_keys: the user or address has neither bought nor claimed the game | `no download key found` |
 * | 404 | no such endpoint or method | `invalid api endpoint` |
 *
 * Authentication comes first, then the scope, then the game, then the parameters. The
 * authorization page answers 400 with an HTML page for an invalid request and never redirects
 * then; 403 for a cross-site form POST.
 *
 * ## Scopes
 *
 * Unscoped API keys reach every endpoint. Scoped credentials (OAuth access tokens, JWTs) need a
 * scope that includes the endpoint's (a scope includes its subscopes): see
 * {@link SERVERSIDE_SCOPES} and {@link OAUTH_API_SCOPES}. credentials/info needs none and lists
 * `scopes` (empty for an unscoped key), with `type`, `oauth_application_id` for access tokens and
 * `expires_at` for JWTs.
 *
 * ## CORS
 *
 * Paths under `/api/` answer browsers from any origin: `Access-Control-Allow-Origin: *` on every
 * response, errors included; a preflight `OPTIONS` gets 204 with
 * `Access-Control-Allow-Methods: GET,POST,OPTIONS`, `Access-Control-Allow-Headers:
 * Authorization,Content-Type` and `Access-Control-Max-Age: 600`. No cookies are involved
 * (credentials are never allowed), so a page can call the API with a Bearer token only. The HTML
 * pages have no CORS headers and refuse framing.
 *
 * @see https://itch.io/docs/api/serverside
 * @module
 */
import type { Server } from 'node:http';
import { isIP } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { parseScopes } from '../core/scopes.js';
import { createEmulatorApp } from './app.js';
import { OWNED_KEYS_PER_PAGE } from './api-oauth.js';
import { DEFAULT_SEED } from './default-seed.js';
import { EmulatorError } from './emulator-error.js';
import type { DenyBehaviour } from './oauth-page.js';
import { loadSeed, type SeedInput } from './seed.js';
import { EmulatorStore } from './store.js';

export { createEmulatorApp, type EmulatorAppOptions } from './app.js';
export { OAUTH_API_SCOPES, OWNED_KEYS_PER_PAGE } from './api-oauth.js';
export { SERVERSIDE_SCOPES } from './api-serverside.js';
export { API_ERRORS } from './api-error.js';
export { DEFAULT_SEED } from './default-seed.js';
export { EmulatorError, type EmulatorErrorCode } from './emulator-error.js';
export { DEFAULT_SEED_CREDENTIALS, DEFAULT_SEED_OWNERS } from './default-seed-credentials.js';
export { authorizationPages, checkAuthorizationRequest, type DenyBehaviour } from './oauth-page.js';
export { EmulatorSeedError, loadSeed, parseSeed, seedSchema, type Seed, type SeedInput } from './seed.js';
export { AUTHORIZATION_REQUEST_LIFETIME_MS, EmulatorStore } from './store.js';

/** The options of `startEmulator`: where it listens and what it is seeded with. */
export interface StartEmulatorOptions {
  /** Port to listen on; `0` (the default) picks a free one. */
  port?: number | undefined;
  /** Interface to listen on; default `127.0.0.1`. Only loopback addresses are accepted unless {@link dangerouslyAllowNonLoopbackHost}. */
  host?: string | undefined;
  /** A seed object, or the path of a JSON file holding one; default {@link DEFAULT_SEED}. Validated at start. */
  data?: SeedInput | string | undefined;
  /**
   * More redirect URIs per client id, added to the seed's (e.g. a test's or the demo's
   * random-port callback page). Matching stays exact.
   */
  extraRedirectUris?: Readonly<Record<string, readonly string[]>> | undefined;
  /** What Deny does: `page` (default, like itch.io) or `redirect` (`#error=access_denied`, RFC 6749). */
  onDeny?: DenyBehaviour | undefined;
  /**
   * Send `Cross-Origin-Opener-Policy: same-origin` on the authorization page, as an authorization
   * server may: a login popup then loses its opener, which sees it closed at once. For testing
   * popup mode's severed case. Default `false`.
   */
  coop?: boolean | undefined;
  /** Page size of profile/owned-keys; default {@link OWNED_KEYS_PER_PAGE} (50, like itch.io). */
  ownedKeysPerPage?: number | undefined;
  /** The clock, for JWT expiry and consent-form lifetime; default the system clock. */
  now?: (() => Date) | undefined;
  /**
   * Listen on a non-loopback `host`, exposing the emulator (and every seeded key) to the network.
   * It has no real security: only for a trusted, isolated network such as a CI container.
   */
  dangerouslyAllowNonLoopbackHost?: boolean | undefined;
}

/** A started emulator: its addresses, its in-memory state, and ways to issue credentials and stop it. */
export interface RunningEmulator {
  /** Origin the emulator listens on, without trailing slash: use it as `base-url` / `baseUrl`. */
  readonly url: string;
  /**
   * `${url}/api`, where the emulator serves what itch.io serves on `https://api.itch.io`: use it
   * as `apiBaseUrl`.
   */
  readonly apiUrl: string;
  readonly host: string;
  readonly port: number;
  /** The in-memory state; tests may inspect it or change it (e.g. `store.revokeApiKey(key)`). */
  readonly store: EmulatorStore;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
  /**
   * Issues an OAuth access token as approving the consent page would, without the browser.
   * `scopes` are not limited to the OAuth ones, so tests can probe scope inclusion (`game:view`).
   * @returns the token (an API key bound to the user and the application, carrying `scopes`).
   */
  issueToken(options: { userId: number; clientId: string; scopes: string | readonly string[] }): string;
  /** Issues a JWT as the itch app would for a game's manifest. @returns the token. */
  issueJwt(options: { userId: number; scopes: string | readonly string[]; expiresAt: Date }): string;
  /** Registers one more exact redirect URI for an application. */
  addRedirectUri(clientId: string, redirectUri: string): void;
}

/** Whether `host` names a loopback interface (`127.0.0.0/8`, `::1`, `localhost`). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return isIP(bare) === 6 && /^(0*:)*:?0*1$/.test(bare);
}

/**
 * Starts the emulator.
 *
 * @example
 * ```ts
 * import { startEmulator, DEFAULT_SEED_CREDENTIALS as C } from 'itch-oauth-widget/emulator';
 * const emulator = await startEmulator({ extraRedirectUris: { [C.clients.demo.clientId]: ['http://127.0.0.1:4321/cb'] } });
 * const itch = createItchClient({ baseUrl: emulator.url, apiBaseUrl: emulator.apiUrl, credential: { type: 'api-key', key: C.apiKeys.developer } });
 * const games = await itch.profileGames();
 * await emulator.close();
 * ```
 * @throws EmulatorSeedError when the seed is invalid (the message names the bad path).
 * @throws EmulatorError `invalid_option` for a non-loopback host without the opt-out; the
 *   listener's own error when the port is taken.
 */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && options.dangerouslyAllowNonLoopbackHost !== true) {
    throw new EmulatorError(
      'invalid_option',
      `refusing to listen on ${host}: the emulator accepts well-known keys and must stay on a loopback address ` +
        '(127.0.0.1, ::1, localhost). Pass dangerouslyAllowNonLoopbackHost: true to expose it anyway.',
    );
  }
  const perPage = options.ownedKeysPerPage ?? OWNED_KEYS_PER_PAGE;
  if (!Number.isInteger(perPage) || perPage < 1)
    throw new EmulatorError('invalid_option', `ownedKeysPerPage must be a positive integer, got ${perPage}`);

  const seed = await loadSeed(options.data ?? DEFAULT_SEED);
  const store = new EmulatorStore(seed, options.now);
  for (const [clientId, uris] of Object.entries(options.extraRedirectUris ?? {})) {
    for (const uri of uris) store.addRedirectUri(clientId, uri);
  }
  const app = createEmulatorApp(store, { onDeny: options.onDeny ?? 'page', ownedKeysPerPage: perPage, coop: options.coop });

  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new EmulatorError('not_listening', 'the emulator is not listening on a TCP port');
  const urlHost = isIP(address.address) === 6 ? `[${address.address}]` : host === 'localhost' ? 'localhost' : address.address;
  const url = `http://${urlHost}:${address.port}`;

  return {
    url,
    apiUrl: `${url}/api`,
    host,
    port: address.port,
    store,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
    issueToken({ userId, clientId, scopes }) {
      const application = store.applicationByClientId(clientId);
      if (application === undefined)
        throw new EmulatorError('unknown_record', `no OAuth application with client id ${JSON.stringify(clientId)}`);
      return store.issueAccessToken(userId, application, parseScopes(scopes)).key;
    },
    issueJwt({ userId, scopes, expiresAt }) {
      return store.issueJwt(userId, parseScopes(scopes), expiresAt).token;
    },
    addRedirectUri(clientId, redirectUri) {
      store.addRedirectUri(clientId, redirectUri);
    },
  };
}
