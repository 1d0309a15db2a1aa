/*
 * Whether itch.io's authorization page severs a popup from its opener, asked of itch.io at most
 * once per ten minutes, kept in this process.
 */

/** How long what the authorization page does to openers is taken as known. */
const SEVERS_KNOWN_MS = 10 * 60 * 1000;
/** How long itch.io is given to answer. */
const ASK_TIMEOUT_MS = 5000;

/**
 * Whether itch.io's authorization page severs a popup from its opener: it does when it sends a
 * `Cross-Origin-Opener-Policy` other than `unsafe-none` (HTML, "cross-origin opener policies").
 * The opener of a severed popup sees it as closed as soon as that page loads, so this tells it
 * whether a close after the start page left is the player's (report it) or may be the page's
 * (wait, and offer to cancel). Asked of `{baseUrl}/user/oauth` with no query (nothing a request
 * can choose), at most once per {@link SEVERS_KNOWN_MS} (once a minute while itch.io cannot be
 * reached): no number of start pages makes more requests to itch.io. Kept in this process, never
 * in the store.
 */
export function authorizationPageSevers(baseUrl: string): () => Promise<boolean | undefined> {
  let known: { at: number; answer: Promise<boolean | undefined>; settled: boolean } | undefined;
  return () => {
    const now = Date.now();
    // An answer still unsettled after the request's own timeout was lost with the request that
    // asked: Cloudflare Workers ends a request's I/O with its response, and a promise of that I/O
    // never settles in another request. Asked again (by this request, at most every 5 seconds).
    if (known === undefined || now - known.at > SEVERS_KNOWN_MS || (!known.settled && now - known.at > ASK_TIMEOUT_MS)) {
      const asked = {
        at: now,
        settled: false,
        answer: fetch(`${baseUrl.replace(/\/$/, '')}/user/oauth`, { redirect: 'follow', signal: AbortSignal.timeout(ASK_TIMEOUT_MS) })
          .then(async (response) => {
            // Asked without a client, the page answers its own error page (400), with its headers; a
            // bot check (403, 429) or an outage (5xx) is another server's answer and says nothing.
            const page = response.status < 500 && response.status !== 403 && response.status !== 429;
            const policy = page ? (response.headers.get('cross-origin-opener-policy') ?? '').split(';')[0]!.trim() : undefined;
            await response.body?.cancel();
            return policy === undefined ? undefined : policy !== '' && policy !== 'unsafe-none';
          })
          // Whatever fails (the network, the body's cancel) leaves it unknown, never a rejection:
          // every bind awaits this answer.
          .catch(() => undefined),
      };
      known = asked;
      void asked.answer.then((value) => {
        asked.settled = true;
        // Not known (itch.io unreachable): asked again after a minute, not at every start page.
        if (value === undefined) asked.at = Date.now() - SEVERS_KNOWN_MS + 60_000;
      });
    }
    return known.answer;
  };
}
