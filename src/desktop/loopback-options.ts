/*
 * The options of a loopback desktop login, and their checks.
 */
import { ItchOAuthError } from '../core/errors.js';

/** How long `loginWithLoopback` waits for itch.io's answer unless `timeoutMs` says otherwise: 5 minutes. */
export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60 * 1000;

/** Options of `loginWithLoopback`. */
export interface LoopbackLoginOptions {
  /** Client ID of the itch.io OAuth application. */
  clientId: string;
  /**
   * The application's registered loopback redirect URI, exactly: `http://127.0.0.1:<port>[/<path>]`,
   * `http://[::1]:<port>[/<path>]` or `http://localhost:<port>[/<path>]`. The login listens on
   * that address and port only.
   */
  redirectUri: string;
  /** Space-separated scopes, or a list of them. Default `profile:me`. */
  scope?: string | readonly string[] | undefined;
  /** Where itch.io lives (authorization page). Default `https://itch.io`. */
  baseUrl?: string | undefined;
  /** Where itch.io's OAuth API lives (credentials/info). Default `https://api.itch.io`. */
  apiBaseUrl?: string | undefined;
  /**
   * Opens the login in the browser. It receives the one-time start address on the listener
   * (`http://127.0.0.1:<port>/itch-oauth-start/<nonce>`), never the itch.io authorization URL:
   * whatever it runs has that address on its command line, which other local users can read.
   * Default: the system browser, with the `open` package.
   */
  openBrowser?: ((url: string) => unknown) | undefined;
  /**
   * The out-of-band fallback for when the port cannot be bound: shows the URL and resolves to the
   * key the user pasted (see `loginOutOfBand`). The application must also have
   * `urn:ietf:wg:oauth:2.0:oob` among its redirect URIs.
   */
  readKey?: ((url: string) => string | Promise<string>) | undefined;
  /** Stops the login: the listener closes and the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * How long to wait for the answer, in milliseconds. Default {@link DEFAULT_LOGIN_TIMEOUT_MS}.
   * itch.io sends nothing back when the user clicks Deny, so this is how a refusal ends.
   */
  timeoutMs?: number | undefined;
}

/**
 * The time limit in milliseconds: `timeoutMs`, or {@link DEFAULT_LOGIN_TIMEOUT_MS}.
 * @throws ItchOAuthError `config_invalid` when it is not a positive number a timer can wait.
 */
export function readTimeout(timeoutMs: number | undefined = DEFAULT_LOGIN_TIMEOUT_MS): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 2 ** 31 - 1) {
    throw new ItchOAuthError('config_invalid', `timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`);
  }
  return timeoutMs;
}

/** The default of `openBrowser`: the system's browser (the `open` package, loaded when first needed). */
export async function openSystemBrowser(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url);
  child.once('error', () => undefined);
}
