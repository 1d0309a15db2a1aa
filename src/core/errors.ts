/**
 * The stable error codes of the package (each explained in docs/reference/errors.md). Apps branch on `code`,
 * never on `message`.
 * @group Errors
 */
export const ERROR_CODES = [
  'access_denied',
  'state_missing',
  'state_mismatch',
  'state_expired',
  'invalid_response',
  'backend_rejected',
  'network_error',
  'popup_blocked',
  'popup_closed',
  'config_invalid',
  // Desktop logins only: no answer in time (itch.io sends nothing back when the user refuses).
  'timeout',
  // The backend requires ownership of a game the user does not own (token handler `ownership.require`).
  'not_owner',
  // The popup could not be tied to the page that opened it, and the site does not ask the person to confirm.
  'popup_unverified',
  // The page cancelled the login with its AbortSignal.
  'aborted',
  // The site's server or itch.io could not answer (a 5xx, or no answer after the retries): not a refusal.
  'service_unavailable',
  // The browser refuses the cookies or storage the login needs.
  'cookies_blocked',
] as const;

/**
 * One of {@link ERROR_CODES}: what `ItchOAuthError.code` and the elements' `itch-login-error` carry.
 * @group Errors
 */
export type ItchOAuthErrorCode = (typeof ERROR_CODES)[number];

/**
 * A code by its index in {@link ERROR_CODES}. The capture script passes codes as these numbers
 * because every byte of it counts; everything else uses the names.
 */
export const ACCESS_DENIED = 0;
export const STATE_MISSING = 1;
export const STATE_MISMATCH = 2;
export const STATE_EXPIRED = 3;
export const INVALID_RESPONSE = 4;
export const BACKEND_REJECTED = 5;
export const NETWORK_ERROR = 6;
export const CONFIG_INVALID = 9;
export const SERVICE_UNAVAILABLE = 14;

/** Fails to compile when an index above no longer names its code in {@link ERROR_CODES}. */
type CodeAt<I extends number> = (typeof ERROR_CODES)[I];
const PINNED: [
  CodeAt<typeof ACCESS_DENIED>,
  CodeAt<typeof STATE_MISSING>,
  CodeAt<typeof STATE_MISMATCH>,
  CodeAt<typeof STATE_EXPIRED>,
  CodeAt<typeof INVALID_RESPONSE>,
  CodeAt<typeof BACKEND_REJECTED>,
  CodeAt<typeof NETWORK_ERROR>,
  CodeAt<typeof CONFIG_INVALID>,
  CodeAt<typeof SERVICE_UNAVAILABLE>,
] = [
  'access_denied',
  'state_missing',
  'state_mismatch',
  'state_expired',
  'invalid_response',
  'backend_rejected',
  'network_error',
  'config_invalid',
  'service_unavailable',
];
void PINNED;

/**
 * The player's sentence for `cookies_blocked`: the message of that error too, as nothing in it is
 * for a developer to fix (the English locale says the same words).
 */
export const COOKIES_BLOCKED =
  "Your browser is blocking the cookies this login needs. Allow cookies for this site in your browser's privacy settings (cookies and site data), then try again.";

/**
 * The one error type the browser side throws and reports. Its message is plain words for a
 * developer and never contains a token.
 * @group Errors
 */
export class ItchOAuthError extends Error {
  override name = 'ItchOAuthError';
  readonly code: ItchOAuthErrorCode;

  /** @param options.cause the error that led to this one (kept as `cause`, as with any `Error`). */
  constructor(code: ItchOAuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * Whether `value` is one of the error codes of {@link ERROR_CODES}.
 * @group Errors
 */
export function isErrorCode(value: unknown): value is ItchOAuthErrorCode {
  return (ERROR_CODES as readonly unknown[]).includes(value);
}
