/*
 * One question of the opener to the backend for its popup's outcome, asked to be held (RFC 7240
 * `Prefer: wait=N`): a backend that holds answers when the login changes from what this page
 * read last (`popup_seen`) and says `Preference-Applied`; one that does not answers at once. After
 * a failed question the backend is asked without `Prefer` (its CORS preflight may refuse it); a
 * held question that a proxy cuts is asked again.
 * @see https://www.rfc-editor.org/rfc/rfc7240#section-4.3
 */
import { ItchOAuthError } from './errors.js';

/**
 * How long the backend is asked to hold a question (RFC 7240 `wait`), in seconds: under the
 * proxies' usual limits (nginx's `proxy_read_timeout` of 60 s, Heroku's 30 s).
 */
export const HOLD_S = 25;
/**
 * A held question that fails (network, a gateway's 502, 504 or 524) after this long was cut by a
 * proxy: it is asked again at once, and counts as no failure. (The backend's own 503, the store
 * down, is a failure however long it took.)
 */
const CUT_AFTER_MS = 1000;
/** No answer, or a gateway's (502, 504, Cloudflare's 524): what a proxy that cuts a request answers. */
const GATEWAY = /^(undefined|502|504|524)$/;
/** While a question is held, how often this page looks at its popup and its deadlines. */
const WATCH_MS = 50;
/** The flags of a pending answer, as a held question tells them back (`popup_seen`). */
const FLAGS = ['arrived', 'confirm', 'delivering', 'unavailable'] as const;

/** What this page read of a pending answer, as a held question tells it back (`popup_seen`). */
export function seenOf(pending: Partial<Record<(typeof FLAGS)[number], unknown>>): string {
  return FLAGS.filter((flag) => pending[flag] === true).join(',');
}

export const abandoned = () => new ItchOAuthError('popup_closed', 'the login was abandoned');

/**
 * One question, held where the backend holds: its answer, `undefined` when it could not be asked,
 * or `'again'` when it is to be asked again at once (interrupted, or cut by a proxy while held).
 */
export async function question(
  backend: URL,
  verifier: string,
  signal: AbortSignal,
  hold: Hold,
  interrupt: () => boolean,
): Promise<Response | undefined | 'again'> {
  const asked = Date.now();
  const answer = await ask(backend, verifier, signal, hold, interrupt);
  // Cut by a proxy while held (a failure after a while): asked again at once, no failure.
  if (answer === 'interrupted' || (GATEWAY.test(String(answer?.status)) && !hold.refused && Date.now() - asked >= CUT_AFTER_MS))
    return 'again';
  // Refused at once: maybe a backend whose CORS preflight does not allow `Prefer`, which is asked
  // as before from now on.
  if (answer === undefined) hold.refused = true;
  return answer;
}

/** How the backend is asked to hold a question. */
export interface Hold {
  /** For how long, in seconds. */
  wait: number;
  /** The flags of the last pending answer, once the backend held a question (`popup_seen`). */
  seen: string | undefined;
  /** The backend is no longer asked to hold (a question failed: its CORS preflight may refuse `Prefer`). */
  refused: boolean;
  /** A DPoP proof for each question (`gameSession()`'s key, which the answer's game token is bound to). */
  proof?: ((url: string) => Promise<string>) | undefined;
}

/**
 * One question to the backend: its answer, `undefined` when it could not be asked, or
 * `'interrupted'` when `interrupt()` turned true while it was held.
 */
async function ask(
  backend: URL,
  verifier: string,
  signal: AbortSignal,
  hold: Hold,
  interrupt: () => boolean,
): Promise<Response | undefined | 'interrupted'> {
  const controller = new AbortController();
  let interrupted = false;
  const stop = () => {
    interrupted = true;
    controller.abort();
  };
  // Kept after the answer came: its body, read after this returns, ends with the login too.
  signal.addEventListener('abort', () => controller.abort(), { once: true });
  const watch = setInterval(() => interrupt() && stop(), WATCH_MS);
  const holding = !hold.refused;
  try {
    return await fetch(backend, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(holding && { Prefer: `wait=${hold.wait}` }),
        ...(hold.proof && { DPoP: await hold.proof(backend.href) }),
      },
      // (JSON leaves out a field that is undefined: no popup_seen until the backend held.)
      body: JSON.stringify({ popup_verifier: verifier, popup_seen: holding ? hold.seen : undefined }),
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error',
      referrerPolicy: 'no-referrer',
      signal: controller.signal,
    });
  } catch {
    if (signal.aborted) throw abandoned();
    return interrupted ? 'interrupted' : undefined;
  } finally {
    clearInterval(watch);
  }
}
