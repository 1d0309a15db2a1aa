/*
 * The token handler's options, checked and with their defaults, once, at creation: every bad
 * option is a `TypeError` that names it, before any request. The checked settings are the only
 * thing the handler's parts receive.
 */
import type { Storage } from 'unstorage';
import { DEFAULT_BASE_URL } from '../../core/authorize-url.js';
import { parseScopes } from '../../core/scopes.js';
import type { Refusal } from '../http/answers.js';
import { ownOrigin, type OwnOrigin } from '../http/own-origin.js';
import { parseAllowedOrigins } from '../http/request-guard.js';
import { assertApiBaseUrl, assertTimeout } from '../itch-api/client-arguments.js';
import { DEFAULT_API_BASE_URL, DEFAULT_TIMEOUT_MS } from '../itch-api/login-client.js';
import type { FetchFunction } from '../itch-api/request.js';
import { memoryPopupStore } from '../popup/relay.js';
import { defaultClientAddress, type ClientAddress } from '../rate-limit/client-address.js';
import { readRateLimit, type RateLimits } from '../rate-limit/options.js';
import type { SetIfAbsent } from '../popup/set-if-absent.js';
import type { SeveredOpener } from '../popup/start-page.js';
import { DEFAULT_MAX_BODY_BYTES, type PopupOptions, type TokenHandlerOptions } from './options.js';
import { readOwnershipOption, type OwnershipSettings } from './ownership.js';

/** The options, checked and with their defaults. */
export interface HandlerSettings {
  onLogin: TokenHandlerOptions['onLogin'];
  baseUrl: string;
  apiBaseUrl: string;
  requiredScopes: string[];
  applicationId: number;
  /** The server's own origin for a request (see ../http/own-origin.ts). */
  ownOrigin: OwnOrigin;
  /** The other origins that may call the handler (empty: none). */
  allowedOrigins: ReadonlySet<string>;
  clientId: string | undefined;
  redirectUri: string | undefined;
  /** The `fetch` that reaches itch.io (`undefined`: the global one, looked up at each call). */
  fetch: FetchFunction | undefined;
  timeoutMs: number;
  maxBodyBytes: number;
  /** `undefined`: popup logins are off. */
  popup: PopupSettings | undefined;
  /** `undefined`: no ownership check. */
  ownership: OwnershipSettings | undefined;
  onError: (refusal: Refusal) => void;
  /** `undefined`: no rate limits (`rateLimit: false`). */
  rateLimit: RateLimits | undefined;
  /** `undefined`: clients are not told apart (only the limits of all clients together apply). */
  clientAddress: ClientAddress | undefined;
  /** The `store` option: where the rate limits count, shared by instances (`undefined`: in memory). */
  store: Storage | undefined;
}

/** The `popup` option with its defaults, and the store popup logins wait in. */
export interface PopupSettings {
  severedOpener: SeveredOpener;
  siteName: string;
  dangerouslyAllowHttp: boolean;
  store: Storage;
  /** `undefined`: detected from `store`. */
  storeSetIfAbsent: SetIfAbsent | undefined;
}

/**
 * Checks the options and fills in their defaults.
 * @throws TypeError naming the option that is malformed.
 */
export function readOptions(options: TokenHandlerOptions): HandlerSettings {
  if (typeof options !== 'object' || options === null) throw new TypeError('createTokenHandler needs an options object');
  if (typeof options.onLogin !== 'function') throw new TypeError('onLogin must be a function');
  const onError = options.onError ?? warnRefusal;
  if (typeof onError !== 'function') throw new TypeError('onError must be a function');
  return {
    onLogin: options.onLogin,
    baseUrl: assertApiBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL, 'baseUrl'),
    apiBaseUrl: assertApiBaseUrl(options.apiBaseUrl ?? DEFAULT_API_BASE_URL, 'apiBaseUrl'),
    requiredScopes: readRequiredScopes(options.requiredScopes),
    applicationId: readApplicationId(options.applicationId),
    ownOrigin: ownOrigin(options.origin, 'createTokenHandler'),
    allowedOrigins: parseAllowedOrigins(options.allowedOrigins ?? []),
    ...readApplication(options),
    fetch: readFetch(options.fetch),
    timeoutMs: assertTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs'),
    maxBodyBytes: readMaxBodyBytes(options.maxBodyBytes),
    popup: readPopupOption(options),
    ownership: options.ownership === undefined ? undefined : readOwnershipOption(options.ownership),
    onError,
    rateLimit: readRateLimit(options.rateLimit),
    clientAddress: readClientAddress(options.clientAddress),
    store: options.store,
  };
}

function readClientAddress(value: unknown): ClientAddress | undefined {
  if (value === undefined) return defaultClientAddress();
  if (typeof value !== 'function')
    throw new TypeError('clientAddress must be a function (request) => the client address (a string) or undefined');
  return value as ClientAddress;
}

/** The default `onError`: one line for the developer. */
function warnRefusal(refusal: Refusal): void {
  console.warn(`itch-oauth-widget: refused (${refusal.status}${refusal.code ? ` ${refusal.code}` : ''}): ${refusal.message}`);
}

/** `requiredScopes`, with `profile:me` always (the handler reads the profile). */
function readRequiredScopes(value: TokenHandlerOptions['requiredScopes']): string[] {
  const list = typeof value === 'string' ? [value] : (value ?? []);
  if (!Array.isArray(list) || list.some((scope) => typeof scope !== 'string')) {
    throw new TypeError('requiredScopes must be a space-separated string or a list of scopes');
  }
  return parseScopes([...parseScopes(list.join(' ')), 'profile:me']);
}

function readApplicationId(applicationId: unknown): number {
  if (typeof applicationId === 'number' && Number.isSafeInteger(applicationId) && applicationId > 0) return applicationId;
  throw new TypeError(
    'applicationId is required: the positive integer id of your itch.io OAuth application (the number in its address on ' +
      'https://itch.io/user/settings/oauth-apps, or the oauth_application_id that https://api.itch.io/credentials/info reports for its tokens). ' +
      'Without it, a token itch.io issued to any other application would log in.',
  );
}

/** The OAuth application's own client id and redirect URI, when the site gives them. */
function readApplication({ clientId, redirectUri }: TokenHandlerOptions): Pick<HandlerSettings, 'clientId' | 'redirectUri'> {
  if (clientId !== undefined && (typeof clientId !== 'string' || clientId === ''))
    throw new TypeError('clientId must be a non-empty string');
  if (redirectUri !== undefined && (typeof redirectUri !== 'string' || !URL.canParse(redirectUri)))
    throw new TypeError('redirectUri must be an absolute URL, the redirect URI registered for your OAuth application');
  return { clientId, redirectUri };
}

function readFetch(value: unknown): FetchFunction | undefined {
  if (value !== undefined && typeof value !== 'function') throw new TypeError('fetch must be a function like the global fetch');
  return value as FetchFunction | undefined;
}

function readMaxBodyBytes(value: unknown = DEFAULT_MAX_BODY_BYTES): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new TypeError('maxBodyBytes must be a positive integer');
  return value;
}

/**
 * What `popup` asks for, with its defaults and its store, or `undefined` when the relay is off.
 * `store` and `storeSetIfAbsent` are checked even then: a mistyped store is found at creation,
 * not the day popup logins are turned on.
 */
function readPopupOption({ popup, store, storeSetIfAbsent }: TokenHandlerOptions): PopupSettings | undefined {
  if (store !== undefined && !isStorage(store)) throw new TypeError('store must be an unstorage Storage (createStorage({ driver }))');
  if (storeSetIfAbsent !== undefined && (typeof storeSetIfAbsent?.set !== 'function' || typeof storeSetIfAbsent.delete !== 'function'))
    throw new TypeError('storeSetIfAbsent must be an object with set(key, ttlSeconds) and delete(key)');
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
  return { severedOpener, siteName, dangerouslyAllowHttp, store: store ?? memoryPopupStore(), storeSetIfAbsent };
}

/** Whether `value` has what the relay calls on an unstorage `Storage`. */
function isStorage(value: unknown): value is Storage {
  const store = value as Partial<Record<keyof Storage, unknown>> | null;
  return (
    typeof store === 'object' &&
    store !== null &&
    ['getItem', 'setItem', 'removeItem', 'getMount'].every((method) => typeof store[method as keyof Storage] === 'function')
  );
}
