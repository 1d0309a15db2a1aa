import type { Context } from 'hono';
import { API_ERRORS, ApiError } from './api-error.js';
import type { GameRecord } from './seed.js';
import type { EmulatorStore } from './store.js';

const POSITIVE_INT = /^[1-9]\d{0,14}$/;

/**
 * The parameters of an API request: the query string, and for a POST also its form-encoded (or
 * multipart) body, whose values win. A repeated name keeps its first value.
 * @see https://itch.io/docs/api/serverside
 */
export async function requestParams(c: Context): Promise<Map<string, string>> {
  const params = new Map<string, string>();
  for (const [name, value] of new URL(c.req.url).searchParams) {
    if (!params.has(name)) params.set(name, value);
  }
  const type = c.req.header('content-type') ?? '';
  if (c.req.method === 'POST' && /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    const body = await c.req.parseBody();
    for (const [name, value] of Object.entries(body)) {
      if (typeof value === 'string') params.set(name, value);
    }
  }
  return params;
}

/** A parameter's value, or undefined when absent or empty. */
export function param(params: Map<string, string>, name: string): string | undefined {
  const value = params.get(name);
  return value === undefined || value === '' ? undefined : value;
}

/** An optional positive-integer parameter (`user_id`, `page`); 400 when present but not one. */
export function positiveIntParam(params: Map<string, string>, name: string): number | undefined {
  const value = param(params, name);
  if (value === undefined) return undefined;
  if (!POSITIVE_INT.test(value)) throw new ApiError(400, `${name} must be a positive integer`);
  return Number(value);
}

/** The game named by a path segment, or 404 `invalid game` (unknown, or not an integer). */
export function gameFromPath(store: EmulatorStore, value: string | undefined): GameRecord {
  const game = value !== undefined && POSITIVE_INT.test(value) ? store.game(Number(value)) : undefined;
  if (game === undefined) throw new ApiError(404, API_ERRORS.invalidGame);
  return game;
}
