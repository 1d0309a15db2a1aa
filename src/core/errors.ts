/**
 * The stable error codes of the package (see the public contract). Apps branch on `code`,
 * never on `message`.
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
] as const;

export type ItchOAuthErrorCode = (typeof ERROR_CODES)[number];

/**
 * The one error type the browser side throws and reports. Its message is plain words for a
 * developer and never contains a token.
 */
export class ItchOAuthError extends Error {
  override name = 'ItchOAuthError';
  readonly code: ItchOAuthErrorCode;

  constructor(code: ItchOAuthErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Whether `value` is one of the contract's error codes. */
export function isErrorCode(value: unknown): value is ItchOAuthErrorCode {
  return (ERROR_CODES as readonly unknown[]).includes(value);
}
