// Shared helpers of the emulator tests: API calls that record every JSON answer, the consent
// form driven over HTTP, and the check that every recorded answer parses with src/server's schemas.
import assert from 'node:assert/strict';
import test from 'node:test';
import type * as z from 'zod/mini';
import type { RunningEmulator } from '../../src/emulator/index.js';
import {
  credentialsInfoResponseSchema,
  downloadKeysResponseSchema,
  errorsResponseSchema,
  gameClaimedRewardsResponseSchema,
  gameOwnershipResponseSchema,
  meResponseSchema,
  myGamesResponseSchema,
  profileCollectionsResponseSchema,
  profileGamesResponseSchema,
  profileOwnedKeysResponseSchema,
  profileResponseSchema,
  purchasesResponseSchema,
  wharfLatestResponseSchema,
} from '../../src/server/itch-api/schemas.js';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, asserted field by field by the tests. */
  body: any;
}

interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

const recorded: RecordedAnswer[] = [];

export interface ApiCallOptions {
  /** Sent as `Authorization: Bearer <bearer>`. */
  bearer?: string;
  method?: string;
  /** Sent form-encoded (POST). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/** Calls the emulator's API and records the JSON answer for {@link testRecordedAnswersMatchSchemas}. */
export async function api(emulator: RunningEmulator, path: string, options: ApiCallOptions = {}): Promise<ApiAnswer> {
  const headers = new Headers(options.headers);
  if (options.bearer !== undefined) headers.set('authorization', `Bearer ${options.bearer}`);
  const init: RequestInit = { method: options.method ?? (options.form === undefined ? 'GET' : 'POST'), headers };
  if (options.form !== undefined) init.body = new URLSearchParams(options.form);
  const response = await fetch(`${emulator.url}${path}`, init);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `${path} answers JSON`);
  const body: unknown = await response.json();
  recorded.push({ method: init.method ?? 'GET', path: new URL(path, emulator.url).pathname, status: response.status, body });
  return { status: response.status, headers: response.headers, body };
}

/** Asserts an error answer: `{ "errors": [message] }` with `status`. */
export function assertApiError(answer: ApiAnswer, status: number, message: string | RegExp): void {
  assert.equal(answer.status, status, `status of ${JSON.stringify(answer.body)}`);
  assert.deepEqual(Object.keys(answer.body as object), ['errors']);
  assert.equal(answer.body.errors.length, 1);
  if (typeof message === 'string') assert.equal(answer.body.errors[0], message);
  else assert.match(answer.body.errors[0], message);
}

const ENDPOINT_SCHEMAS: [name: string, path: RegExp, schema: z.ZodMiniType][] = [
  ['/api/1/KEY/credentials/info', /^\/api\/1\/[^/]+\/credentials\/info$/, credentialsInfoResponseSchema],
  ['/api/1/KEY/me', /^\/api\/1\/[^/]+\/me$/, meResponseSchema],
  ['/api/1/KEY/my-games', /^\/api\/1\/[^/]+\/my-games$/, myGamesResponseSchema],
  ['/api/1/KEY/game/ID/download_keys', /^\/api\/1\/[^/]+\/game\/[^/]+\/download_keys$/, downloadKeysResponseSchema],
  ['/api/1/KEY/game/ID/purchases', /^\/api\/1\/[^/]+\/game\/[^/]+\/purchases$/, purchasesResponseSchema],
  ['/api/credentials/info', /^\/api\/credentials\/info$/, credentialsInfoResponseSchema],
  ['/api/profile', /^\/api\/profile$/, profileResponseSchema],
  ['/api/profile/games', /^\/api\/profile\/games$/, profileGamesResponseSchema],
  ['/api/profile/collections', /^\/api\/profile\/collections$/, profileCollectionsResponseSchema],
  ['/api/profile/owned-keys', /^\/api\/profile\/owned-keys$/, profileOwnedKeysResponseSchema],
  ['/api/games/ID/ownership', /^\/api\/games\/[^/]+\/ownership$/, gameOwnershipResponseSchema],
  ['/api/games/ID/claimed-rewards', /^\/api\/games\/[^/]+\/claimed-rewards$/, gameClaimedRewardsResponseSchema],
  ['/api/games/ID/download_keys', /^\/api\/games\/[^/]+\/download_keys$/, downloadKeysResponseSchema],
  ['/api/games/ID/purchases', /^\/api\/games\/[^/]+\/purchases$/, purchasesResponseSchema],
  ['/api/wharf/latest', /^\/api\/wharf\/latest$/, wharfLatestResponseSchema],
];

/**
 * Registers, last in a test file, one test per endpoint reached in the file: every JSON answer
 * recorded by {@link api} parses with the matching exported schema of src/server (errors with
 * errorsResponseSchema).
 */
export function testRecordedAnswersMatchSchemas(): void {
  test('every JSON answer in this file parses with the matching src/server schema', async (t) => {
    assert.ok(recorded.length > 0, 'answers were recorded');
    const errors = recorded.filter((answer) => answer.status >= 400);
    await t.test(`${errors.length} error answers parse with errorsResponseSchema`, () => {
      for (const answer of errors) {
        const result = errorsResponseSchema.safeParse(answer.body);
        assert.ok(result.success, `${answer.method} ${answer.path} ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
    });
    const successes = recorded.filter((answer) => answer.status < 400);
    for (const answer of successes) {
      assert.ok(
        ENDPOINT_SCHEMAS.some(([, path]) => path.test(answer.path)),
        `no schema known for ${answer.method} ${answer.path}`,
      );
    }
    for (const [name, path, schema] of ENDPOINT_SCHEMAS) {
      const answers = successes.filter((answer) => path.test(answer.path));
      if (answers.length === 0) continue;
      await t.test(`${answers.length} answers of ${name}`, () => {
        for (const answer of answers) {
          const result = schema.safeParse(answer.body);
          assert.ok(result.success, `${answer.method} ${answer.path}: ${result.error?.message}\n${JSON.stringify(answer.body)}`);
        }
      });
    }
  });
}

/** Authorization request parameters as an object (`undefined` leaves a parameter out). */
export type AuthorizationParams = Record<string, string | undefined>;

export function authorizePath(params: AuthorizationParams): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.append(name, value);
  return `/user/oauth?${query}`;
}

export interface ConsentPage {
  status: number;
  headers: Headers;
  html: string;
  /** The single-use id of the consent form, when the page has one. */
  requestId: string | undefined;
}

/** `GET /user/oauth?…` without following redirects. */
export async function openAuthorization(emulator: RunningEmulator, params: AuthorizationParams | string): Promise<ConsentPage> {
  const path = typeof params === 'string' ? params : authorizePath(params);
  const response = await fetch(`${emulator.url}${path}`, { redirect: 'manual' });
  const html = await response.text();
  const requestId = /<input type="hidden" name="request" value="([^"]+)">/.exec(html)?.[1];
  return { status: response.status, headers: response.headers, html, requestId };
}

/** Posts the consent form as a browser on the emulator's page would (same Origin), without following redirects. */
export async function submitConsent(
  emulator: RunningEmulator,
  form: Record<string, string>,
  origin: string = emulator.url,
): Promise<{ status: number; location: string | null; html: string; headers: Headers }> {
  const response = await fetch(`${emulator.url}/user/oauth`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin },
    body: new URLSearchParams(form),
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text(), headers: response.headers };
}

/** The fragment of a redirect target, parsed like a query string. */
export function fragmentOf(location: string): URLSearchParams {
  return new URLSearchParams(new URL(location).hash.slice(1));
}

/** Runs the whole flow over HTTP (open, pick the user, Approve) and returns the redirect target. */
export async function approve(
  emulator: RunningEmulator,
  params: AuthorizationParams,
  userId: number,
): Promise<{ location: string; token: string }> {
  const page = await openAuthorization(emulator, params);
  assert.equal(page.status, 200, page.html);
  assert.ok(page.requestId);
  const answer = await submitConsent(emulator, { request: page.requestId, decision: 'approve', user_id: String(userId) });
  assert.equal(answer.status, 302, answer.html);
  assert.ok(answer.location);
  const token = fragmentOf(answer.location).get('access_token');
  assert.ok(token);
  return { location: answer.location, token };
}
