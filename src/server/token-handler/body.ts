/*
 * The four bodies the token handler accepts, read into one tagged union. A body is recognised by
 * its exact set of fields, then each field is checked (zod), so that an unknown field or a mixed
 * shape is refused as a whole.
 */
import * as z from 'zod/mini';
import { SEEN } from '../popup/held-collection.js';
import { BASE64URL_256, POPUP_STATE } from '../popup/relay.js';
import type { BindRequest } from '../popup/step-context.js';

/** What a request asks for. */
export type Body =
  /** Redirect mode: log in with this token. */
  | { kind: 'login'; token: string }
  /** A popup's callback page deposits its token under the popup's state. */
  | { kind: 'deposit'; token: string; state: string }
  /** The opener collects its popup login with the verifier. */
  | { kind: 'collect'; verifier: string; seen?: string | undefined }
  /** A popup's start page binds its state to this browser. */
  | { kind: 'bind'; bind: BindRequest }
  /** None of these: the 400 answer's message. */
  | { kind: 'problem'; problem: string };

/** An access token as RFC 6750 section 2.1 allows it in a Bearer header (b64token). */
const ACCESS_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** itch.io's access tokens are 40 characters; anything far longer is not one. */
const MAX_TOKEN_LENGTH = 1024;

const BODY_SHAPES =
  '{"access_token": "<token>"}, {"access_token": "<token>", "state": "p.<popup state>"}, {"popup_verifier": "<verifier>", "popup_seen"?: "<flags>"} or {"popup_bind": "p.<popup state>", "opener": "<origin>" | null, "binding"?: "<binding>", "confirmed"?: true}';

/** A string that must match `pattern`, with one message whatever is wrong. */
const matching = (pattern: RegExp, message: string, maxLength = Infinity) =>
  z.string({ error: message }).check(z.maxLength(maxLength, message), z.regex(pattern, message));

const tokenBody = z.pipe(
  z.object({
    access_token: matching(
      ACCESS_TOKEN,
      `access_token must be a string of 1 to ${MAX_TOKEN_LENGTH} letters, digits and -._~+/ (RFC 6750 b64token)`,
      MAX_TOKEN_LENGTH,
    ),
    state: z.optional(matching(POPUP_STATE, 'state must be the state of a popup login ("p." and 43 base64url characters)')),
  }),
  z.transform(({ access_token: token, state }): Body =>
    state === undefined ? { kind: 'login', token } : { kind: 'deposit', token, state },
  ),
);

const collectBody = z.pipe(
  z.object({
    popup_verifier: matching(BASE64URL_256, 'popup_verifier must be 43 base64url characters'),
    // What a held collection's opener read last (see ../popup/held-collection.ts).
    popup_seen: z.optional(matching(SEEN, 'popup_seen must name the flags of the last pending answer, comma-separated')),
  }),
  z.transform(({ popup_verifier: verifier, popup_seen: seen }): Body => ({ kind: 'collect', verifier, seen })),
);

const bindBody = z.pipe(
  z.object({
    popup_bind: matching(POPUP_STATE, 'popup_bind must be the state of a popup login'),
    opener: z.nullable(z.string({ error: 'opener must be an origin or null' }).check(z.maxLength(300, 'opener must be an origin or null'))),
    binding: z.optional(z.string({ error: 'binding must be a string' })),
    confirmed: z._default(z.boolean({ error: 'confirmed must be a boolean' }), false),
  }),
  z.transform(({ popup_bind: state, opener, binding, confirmed }): Body => ({ kind: 'bind', bind: { state, opener, binding, confirmed } })),
);

/** Each accepted set of fields (sorted, comma-separated) and how it is read. */
const SHAPES = new Map<string, z.ZodMiniType<Body, unknown>>([
  ['access_token', tokenBody],
  ['access_token,state', tokenBody],
  ['popup_verifier', collectBody],
  ['popup_seen,popup_verifier', collectBody],
  ['opener,popup_bind', bindBody],
  ['confirmed,opener,popup_bind', bindBody],
  ['binding,opener,popup_bind', bindBody],
]);

/** Reads a request body (UTF-8 JSON) as one of the four bodies, or the problem with it. */
export function readBody(bytes: Uint8Array): Body {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { kind: 'problem', problem: 'the request body is not JSON' };
  }
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body).sort().join() : '';
  const shape = SHAPES.get(fields);
  if (shape === undefined) return { kind: 'problem', problem: `the request body must be exactly ${BODY_SHAPES}` };
  const read = shape.safeParse(body);
  return read.success ? read.data : { kind: 'problem', problem: read.error.issues[0]!.message };
}
