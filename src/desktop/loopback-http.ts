/*
 * How the loopback listener answers: the callback page's JSON, plain-text refusals, the bounded
 * request body and the login cookie check.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMMON_HEADERS } from './callback-page.js';

/** Largest callback POST accepted (a fragment is at most 4096 characters). */
const MAX_BODY_BYTES = 8192;

/** Whether two secrets are equal, in a time that does not tell where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Answers with `body` and the headers every answer carries. */
export function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
): Promise<void> {
  return new Promise((resolve) => {
    // A connection the listener closed (the login ended meanwhile) never finishes writing.
    response.once('close', () => resolve());
    response.writeHead(status, { ...COMMON_HEADERS, 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra });
    response.end(body, () => resolve());
  });
}

/** Whether the `Cookie` header carries `name` with the value `value` (any of its copies). */
export function hasCookie(header: string | undefined, name: string, value: string): boolean {
  let found = false;
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name && sameSecret(pair.slice(at + 1).trim(), value)) found = true;
  }
  return found;
}

/** The words the callback page shows: a heading and a sentence. */
export interface PageAnswer {
  title: string;
  message: string;
}

/** The callback page's answer to its POST: what it shows. */
export const answer = (response: ServerResponse, status: number, words: PageAnswer, extra?: Record<string, string>): Promise<void> =>
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(words), extra);

/** A refusal in plain text. */
export const refuse = (response: ServerResponse, status: number, reason: string): Promise<void> =>
  send(response, status, 'text/plain; charset=utf-8', `${reason}\n`);

/** The request body, or `undefined` over {@link MAX_BODY_BYTES}. */
export async function readBody(request: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
