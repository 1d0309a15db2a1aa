import { buildAuthorizeUrl, OOB_REDIRECT_URI } from '../core/authorize-url.js';
import { ItchOAuthError } from '../core/errors.js';
import { DEFAULT_SCOPE } from '../core/scopes.js';
import { createState } from '../core/state.js';
import { verifyAccessToken, type DesktopLoginResult } from './verify.js';

/** Options of {@link loginOutOfBand}. */
export interface OutOfBandLoginOptions {
  /** Client ID of the itch.io OAuth application; `urn:ietf:wg:oauth:2.0:oob` must be one of its redirect URIs. */
  clientId: string;
  /** Space-separated scopes, or a list of them. Default `profile:me`. */
  scope?: string | readonly string[] | undefined;
  /** Where itch.io lives (authorization page). Default `https://itch.io`. */
  baseUrl?: string | undefined;
  /** Where itch.io's OAuth API lives (credentials/info). Default `https://api.itch.io`. */
  apiBaseUrl?: string | undefined;
  /**
   * Shows `url` to the user (and may open it) and resolves to the key they pasted from the page
   * itch.io shows after Approve.
   */
  readKey: (url: string) => string | Promise<string>;
  /** Stops waiting: the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Logs in without a listener: itch.io shows the key on its own page (`redirect_uri=urn:ietf:wg:oauth:2.0:oob`)
 * and the user pastes it. The pasted key is checked with credentials/info before it is returned.
 *
 * There is no `state` to check in this flow (nothing is redirected), which is why the key is
 * verified with itch.io instead.
 *
 * @example
 * What `npx itch-oauth-widget login --oob` does: show the address on stderr, and read the key
 * the user pastes from the terminal.
 * ```ts
 * import { createInterface } from 'node:readline/promises';
 * import { loginOutOfBand } from 'itch-oauth-widget/desktop';
 *
 * const { accessToken, scopes } = await loginOutOfBand({
 *   clientId: 'your-client-id', // urn:ietf:wg:oauth:2.0:oob must be one of its redirect URIs
 *   scope: 'profile:me',
 *   readKey: async (url) => {
 *     console.error(`Open this address in your browser to log in with itch.io:\n  ${url}`);
 *     console.error('After you approve, itch.io shows a key: paste it here and press Enter.');
 *     const terminal = createInterface({ input: process.stdin, output: process.stderr });
 *     try {
 *       return await terminal.question('Key: ');
 *     } finally {
 *       terminal.close();
 *     }
 *   },
 * });
 * ```
 * @throws ItchOAuthError `config_invalid` for bad options, `backend_rejected` for a key itch.io
 *   does not know, `network_error` when itch.io cannot be reached; the signal's reason on abort.
 * @see https://itch.io/docs/api/oauth
 */
export async function loginOutOfBand(options: OutOfBandLoginOptions): Promise<DesktopLoginResult> {
  if (typeof options.readKey !== 'function') throw new ItchOAuthError('config_invalid', 'readKey is required for the out-of-band login');
  options.signal?.throwIfAborted();
  const url = buildAuthorizeUrl({
    clientId: options.clientId,
    redirectUri: OOB_REDIRECT_URI,
    scope: options.scope ?? DEFAULT_SCOPE,
    // itch.io ignores it on this page; sent so the request has the same shape as every other.
    state: createState(),
    baseUrl: options.baseUrl,
  });
  const key = await abortable(Promise.resolve(options.readKey(url.href)), options.signal);
  if (typeof key !== 'string' || key.trim() === '') throw new ItchOAuthError('backend_rejected', 'no key was pasted');
  return verifyAccessToken(key, options);
}

/** `promise`, or the signal's reason as soon as it aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
