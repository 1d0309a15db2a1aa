/*
 * Checks of createSessions' options and of the `allow` a route or a read asks for.
 */
import type { Session } from './session.js';

export function readAllow(allow: readonly Session['via'][]): ReadonlySet<Session['via']> {
  if (!Array.isArray(allow) || allow.some((carrier) => carrier !== 'cookie' && carrier !== 'game')) {
    throw new TypeError('allow must be a list of "cookie" and "game"');
  }
  return new Set(allow);
}

export function seconds(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`${name} must be a positive whole number of seconds`);
  return value;
}
