/*
 * The held collection: an opener that sends `Prefer: wait=N` (RFC 7240 section 4.3) is answered
 * as soon as its login changes (the outcome landed, or what the 202 says changed: arrived,
 * delivering, a code to confirm, itch.io unavailable), or with the usual 202 pending after at most
 * N seconds, capped at {@link MAX_HOLD_S}; the answer says the wait it applied in
 * `Preference-Applied: wait=N` (RFC 7240 section 3), by which the opener knows it may ask again at
 * once. Without `Prefer` the collection is answered at once, as before.
 *
 * "Changed" is judged against what the opener says it knows (`popup_seen`: the flags of the last
 * 202 it read), so a change between two of its requests is answered at once, not missed.
 * @see https://www.rfc-editor.org/rfc/rfc7240
 */
import type { Wake } from './wake.js';

/**
 * The longest a collection is held: under nginx's default `proxy_read_timeout` (60 s), Heroku's
 * router (30 s) and Cloudflare's proxy (100 s), so that none of them cuts it.
 */
export const MAX_HOLD_S = 25;
/**
 * How many collections one token handler holds at once. Beyond it a collection is answered at
 * once, without `Preference-Applied`, and its opener asks again a second later (as without
 * holding): memory stays bounded whatever the number of waiting openers.
 */
export const MAX_HELD = 1000;
/**
 * How many of them one client address holds at once (where the handler knows addresses: see
 * `clientAddress`): 30 players behind one shared address, each opener holding one, twice over.
 * Beyond it that client's collections are answered at once, so that one address cannot take every
 * place and leave the others' openers to ask once a second.
 */
export const MAX_HELD_PER_CLIENT = 60;

/** The flags of a pending answer an opener may have read. */
const FLAGS = ['arrived', 'confirm', 'delivering', 'unavailable'] as const;

/** What an opener says it knows (`popup_seen`): flags of {@link FLAGS}, comma-separated. */
export const SEEN = /^[a-z]{1,12}(?:,[a-z]{1,12}){0,3}$|^$/;

/** The `wait` preference of a `Prefer` header (RFC 7240 section 2: preferences, comma-separated), in seconds. */
export function preferredWait(prefer: string | null): number | undefined {
  for (const preference of (prefer ?? '').split(',')) {
    const wait = /^\s*wait\s*=\s*"?(\d{1,9})"?\s*(?:;.*)?$/i.exec(preference)?.[1];
    if (wait !== undefined) return Number(wait);
  }
  return undefined;
}

/** The flags a pending answer's body carries, as `popup_seen` names them; `undefined` for any other answer. */
async function flagsOf(answer: Response): Promise<string | undefined> {
  if (answer.status !== 202) return undefined;
  const body = (await answer
    .clone()
    .json()
    .catch(() => null)) as Record<string, unknown> | null;
  return body?.['pending'] === true ? FLAGS.filter((flag) => body[flag] === true).join(',') : undefined;
}

/** `answer`, saying the wait it applied (RFC 7240 section 3). */
function applied(answer: Response, wait: number): Response {
  const headers = new Headers(answer.headers);
  headers.set('Preference-Applied', `wait=${wait}`);
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
}

/** The normalized form of what an opener says it knows (order and unknown names do not matter). */
function normalized(seen: string): string {
  const known = new Set(seen.split(','));
  return FLAGS.filter((flag) => known.has(flag)).join(',');
}

/**
 * The collections one token handler holds. `clientOf` names the client a request comes from (the
 * key its rate limits count it under), or `undefined` where it is not known.
 */
export function heldCollections(wake: Wake, clientOf: (request: Request) => string | undefined = () => undefined) {
  let held = 0;
  /** How many each known client holds now (none kept at zero). */
  const heldBy = new Map<string, number>();
  return {
    /** How many are held now. */
    count: () => held,
    /**
     * Answers a collection: `collectOnce()` at once when the request did not ask to wait, or
     * {@link MAX_HELD} are held, or its client holds {@link MAX_HELD_PER_CLIENT}; else
     * `collectOnce()` again at every wake-up until its answer is not the pending one the opener
     * knows, the wait is over, or the client went away.
     */
    async collect(request: Request, state: string, keys: readonly string[], seen: string, collectOnce: () => Promise<Response>) {
      const wanted = preferredWait(request.headers.get('prefer'));
      if (wanted === undefined || held >= MAX_HELD) return collectOnce();
      const client = clientOf(request);
      const byClient = client === undefined ? 0 : (heldBy.get(client) ?? 0);
      if (byClient >= MAX_HELD_PER_CLIENT) return collectOnce();
      const wait = Math.min(wanted, MAX_HOLD_S);
      const deadline = Date.now() + wait * 1000;
      const known = normalized(seen);
      held++;
      if (client !== undefined) heldBy.set(client, byClient + 1);
      const armed = wake.arm(state, keys, request.signal);
      try {
        for (;;) {
          const answer = await collectOnce();
          const left = deadline - Date.now();
          // A client gone (or a proxy that cut the request) is not read again after a wake-up:
          // the login it would take stays for its next question.
          if ((await flagsOf(answer)) !== known || left <= 0 || request.signal.aborted) return applied(answer, wait);
          await armed.woken(left);
          if (request.signal.aborted) return applied(answer, wait);
        }
      } finally {
        armed.disarm();
        held--;
        if (client !== undefined) {
          const left = heldBy.get(client)! - 1;
          if (left === 0) heldBy.delete(client);
          else heldBy.set(client, left);
        }
      }
    },
  };
}
