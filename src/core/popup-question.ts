/*
 * One question of the opener to the backend for its popup's outcome, asked to be held (RFC 7240
 * `Prefer: wait=N`): a backend that holds answers when the login changes from what this page
 * read last (`popup_seen`) and says `Preference-Applied`; one that does not answers at once. A
 * backend whose CORS preflight refuses `Prefer` is asked without it; a held question that a proxy
 * cuts is asked again, for a shorter hold.
 * @see https://www.rfc-editor.org/rfc/rfc7240#section-4.3
 */
import { ItchOAuthError } from './errors.js';

/**
 * How long the backend is asked to hold a question (RFC 7240 `wait`), in seconds: under the
 * proxies' usual limits (nginx's `proxy_read_timeout` of 60 s, Heroku's 30 s).
 */
export const HOLD_S = 25;
/**
 * A held question that fails (network, 5xx) after this long was cut by a proxy, not refused: it
 * is asked again at once, for a shorter hold, and counts as no failure.
 */
const CUT_AFTER_MS = 1000;
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
  let answer = await ask(backend, verifier, signal, hold, interrupt);
  const held = !hold.refused && Date.now() - asked >= CUT_AFTER_MS;
  if (answer === undefined && !held && !hold.refused) {
    // Refused before it was held: a backend that does not allow `Prefer` across origins (its
    // CORS preflight) is asked as before, from now on.
    hold.refused = true;
    answer = await ask(backend, verifier, signal, hold, interrupt);
    if (answer === undefined) hold.refused = false;
  }
  if (answer === 'interrupted') return 'again';
  if ((answer === undefined || answer.status >= 500) && held) {
    // Cut by a proxy while held: asked again at once, for a shorter hold.
    hold.wait = Math.max(1, Math.min(hold.wait, Math.floor((Date.now() - asked) / 1000) - 1));
    return 'again';
  }
  return answer;
}

/** How the backend is asked to hold a question. */
export interface Hold {
  /** For how long, in seconds. */
  wait: number;
  /** The flags of the last pending answer, once the backend held a question (`popup_seen`). */
  seen: string | undefined;
  /** The backend cannot be asked to hold (its CORS preflight refuses `Prefer`). */
  refused: boolean;
}

/**
 * One question to the backend: its answer, `undefined` when it could not be asked, or
 * `'interrupted'` when `interrupt()` turned true, or the page was hidden, while it was held.
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
  const end = () => controller.abort();
  signal.addEventListener('abort', end);
  // A page that leaves (or goes into the back-forward cache) leaves nothing held on the server.
  addEventListener('pagehide', stop);
  const watch = setInterval(() => interrupt() && stop(), WATCH_MS);
  const holding = !hold.refused;
  try {
    return await fetch(backend, {
      method: 'POST',
      headers: holding ? { 'Content-Type': 'application/json', Prefer: `wait=${hold.wait}` } : { 'Content-Type': 'application/json' },
      body: JSON.stringify(
        holding && hold.seen !== undefined ? { popup_verifier: verifier, popup_seen: hold.seen } : { popup_verifier: verifier },
      ),
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
    removeEventListener('pagehide', stop);
    signal.removeEventListener('abort', end);
  }
}
