import { ItchOAuthError } from './errors.js';

/**
 * The scopes itch.io offers third-party OAuth applications.
 * @see https://itch.io/docs/api/oauth
 * @group Scopes
 */
export const ITCH_SCOPES = [
  'profile',
  'profile:me',
  'profile:games',
  'profile:collections',
  'profile:owned',
  'game:view:ownership',
  'game:view:rewards',
] as const;

/**
 * One of itch.io's documented OAuth scopes (see `ITCH_SCOPES`).
 * @group Scopes
 */
export type ItchScope = (typeof ITCH_SCOPES)[number];

/**
 * The scope a login button asks for when none is given.
 * @group Scopes
 */
export const DEFAULT_SCOPE = 'profile:me';

/**
 * Splits a space-separated scope list (as in an authorization request or credentials/info),
 * dropping empty entries and duplicates, keeping order.
 * @group Scopes
 */
export function parseScopes(value: string | readonly string[]): string[] {
  const parts = typeof value === 'string' ? value.split(/[ \t\n\r]+/) : value;
  return [...new Set(parts.filter((part) => part !== ''))];
}

/**
 * Whether `scope` is one of itch.io's OAuth scopes.
 * @group Scopes
 */
export function isKnownScope(scope: string): scope is ItchScope {
  return (ITCH_SCOPES as readonly string[]).includes(scope);
}

/**
 * Whether a granted scope includes a required one: a scope includes itself and all of its
 * subscopes (`profile` includes `profile:me`), never its parent or a sibling
 * (`game:view:purchases` does not include `game:view`).
 * @see https://itch.io/docs/api/oauth
 * @group Scopes
 */
export function scopeIncludes(granted: string, required: string): boolean {
  return granted !== '' && (required === granted || required.startsWith(`${granted}:`));
}

/**
 * Whether the granted scopes give every required scope.
 * @see https://itch.io/docs/api/oauth
 * @group Scopes
 */
export function satisfies(granted: string | readonly string[], required: string | readonly string[]): boolean {
  const have = parseScopes(granted);
  return parseScopes(required).every((need) => have.some((scope) => scopeIncludes(scope, need)));
}

/**
 * The required scopes that the granted ones do not give (empty when all are given).
 * @group Scopes
 */
export function missingScopes(granted: string | readonly string[], required: string | readonly string[]): string[] {
  const have = parseScopes(granted);
  return parseScopes(required).filter((need) => !have.some((scope) => scopeIncludes(scope, need)));
}

/**
 * Checks a scope list for an authorization request: not empty, and only itch.io's scopes unless
 * `allowUnknown` is set. Returns the normalised list.
 * @group Scopes
 */
export function assertRequestScopes(value: string | readonly string[], allowUnknown = false): string[] {
  const scopes = parseScopes(value);
  if (scopes.length === 0) {
    throw new ItchOAuthError('config_invalid', 'scope is empty: ask for at least one itch.io scope, e.g. "profile:me"');
  }
  const unknown = scopes.filter((scope) => !isKnownScope(scope));
  if (unknown.length > 0 && !allowUnknown) {
    throw new ItchOAuthError(
      'config_invalid',
      `unknown itch.io scope ${unknown.map((s) => JSON.stringify(s)).join(', ')}; known scopes are ${ITCH_SCOPES.join(', ')}`,
    );
  }
  return scopes;
}
