import { ACCESS_DENIED, BACKEND_REJECTED, CONFIG_INVALID, INVALID_RESPONSE, SERVICE_UNAVAILABLE, STATE_MISMATCH } from '../core/errors.js';
import { readCallbackFragment, type CallbackParams } from '../core/fragment.js';
import { takeFlow, type FlowRecord } from '../core/state.js';
import { OUTCOME_KEY, type CaptureOutcome } from './outcome.js';
import { documentProperty } from '../core/page-document.js';

/** The options of `captureCallback`, as the script tag's `data-*` attributes give them. */
export interface CaptureOptions {
  /** URL the token is POSTed to (the `data-backend` attribute). Resolved against the page address. */
  backend?: string | undefined;
  /**
   * Stay on the callback page after success (the `data-no-redirect` attribute): the clean
   * callback document then shows the success and fires `itch-login-success`.
   */
  noRedirect?: boolean | undefined;
  /**
   * Text of the capture's own view while the token is delivered (the `data-pending` attribute).
   * Default "Signing you in…". Shown when the capture runs as a parser-blocking classic script;
   * run any other way, it stops the document, which then paints nothing.
   */
  pending?: string | undefined;
  /**
   * Allow a `backend` on another origin than the callback page (the `data-cross-origin`
   * attribute): https, or http on loopback. Without it such a token endpoint is `config_invalid`, so
   * that no address but the page's own origin receives a token unless the page said so.
   */
  crossOrigin?: boolean | undefined;
}

/**
 * The `<script>` element running this classic script, as the browser knows it, or `null`.
 * Document's named properties override its built-ins (WebIDL `[LegacyOverrideBuiltIns]`): an
 * `<img name="currentScript">` or `<form name="currentScript">` in the page would be
 * `document.currentScript`; Document.prototype's getter is not shadowed (see
 * src/core/page-document.ts, which the elements' files ask too).
 */
export const currentScript = (): HTMLScriptElement | null => documentProperty('currentScript') as HTMLScriptElement | null;

/**
 * What the capture writes after its own script: its view (`<output>` is a status region) and
 * `<plaintext>`, after which the parser turns the rest of the markup into inert text: no later
 * element, so no later script, ever exists in this document. The view follows the page's
 * `color-scheme` when a `<meta name="color-scheme">` comes before the capture (nothing after it
 * is parsed).
 */
const HOLD = '<output><plaintext>';

/** A token endpoint on another origin (allowed by `crossOrigin`) must be https: the token never crosses to another host in the clear. */
const CROSS_ORIGIN_BACKEND = /^https:/;

/**
 * Reads and clears the implicit-flow response from the address, synchronously, before any other
 * script of the page can run, and then makes sure none ever does: run as a parser-blocking
 * classic script (first in `<head>`), it turns the rest of the markup into inert text and shows
 * its pending view (`pending`, default "Signing you in…"); run any other way, it stops the
 * document (`window.stop()`). The state is checked and consumed, the token POSTed once to the
 * backend, and the user continues in a clean document: the flow's `return-to` on success, else
 * the callback address without the fragment, where `<itch-oauth-callback>` shows the outcome (see
 * `CaptureOutcome`). The token lives only in this closure.
 *
 * Does nothing when the fragment is not an implicit-flow response, so also on a second call: the
 * first cleared the fragment. (Nothing is returned: after a capture no later script runs anyway.)
 * Size matters here (budget: 1,152 B gzip): the outcome carries error codes as numbers, and
 * `<itch-oauth-callback>` puts them in words.
 *
 * @see https://itch.io/docs/api/oauth
 */
export function captureCallback({ backend, noRedirect, crossOrigin, pending = 'Signing you in\u2026' }: CaptureOptions = {}): void {
  const { hash, href, origin } = location;
  const params = readCallbackFragment(hash.slice(1));
  if (!params) return;
  // The address without the fragment. Absolute: a relative URL would resolve against an injected
  // <base href>. This document keeps an empty one (`#`): it loads and shows the pending view, and
  // must not be mistaken for the clean document at `cleanUrl` that comes next.
  const cleanUrl = href.split('#')[0]!;
  // A popup login (`p.` state, see popup mode). The history entry's state says whether it is one
  // (`true`; a reload keeps it, and it holds nothing of the response), so that this page, reloaded
  // before the outcome is shown, offers Close rather than a way into the site. (The entry is
  // itch.io's answer, a fresh navigation: it had no state to keep.)
  const popup = /^p\./.test((params as CallbackParams).state!);
  // (Its second argument is unused: any value does, and `0` is the shortest.)
  history.replaceState(popup, 0 as never, cleanUrl + '#');
  // Now no other script of this document may ever run. During parsing, from a classic script
  // that is neither async nor deferred (the capture first in <head>), document.write puts HOLD
  // into the parser right after it: the rest of the page becomes inert text and the view paints.
  // From anywhere else it would be ignored (module, async and deferred scripts) or replace the
  // page (after parsing, from a timer or a promise: no current script then), so it is not tried;
  // and when it did not take, the document is stopped (no later script runs, nothing paints).
  const doc = document;
  try {
    // (`== false`: no current script gives undefined.)
    if (currentScript()?.async == false)
      doc.write(
        // Under `require-trusted-types-for 'script'`, document.write takes only TrustedHTML: this
        // policy makes HOLD and nothing else.
        (self as { trustedTypes?: { createPolicy(name: string, rules: object): { createHTML(input: string): string } } }).trustedTypes
          ?.createPolicy('itch-oauth-capture', { createHTML: () => HOLD })
          .createHTML('') ?? HOLD,
      );
    // The written markup is parsed at once (no script is pending). Without a <plaintext> (nothing
    // written, write ignored, or it threw) this throws. The text replaces the <plaintext> in the
    // view; the parser goes on filling it, detached.
    doc.querySelector('plaintext')!.parentNode!.textContent = pending;
  } catch {
    stop();
  }

  let flow: FlowRecord | number = 0;
  // Goes on to the clean document, leaving it the outcome (never the token) when it is the
  // callback page: a return-to page has no use for one.
  const finish = (code?: number, response?: unknown, to = cleanUrl) => {
    try {
      if (to == cleanUrl) sessionStorage.setItem(OUTCOME_KEY, JSON.stringify({ code, response, flow } satisfies CaptureOutcome));
    } catch {
      // Storage is disabled: the clean document shows no outcome.
    }
    location.replace(to);
  };

  const deliver = async () => {
    try {
      // A popup login has no flow record here (a framed opener's storage is not this one); the
      // token endpoint checks the state, and only the opener can collect.
      // (A number, a problem, has none of these fields.)
      const { access_token: token, error, state } = params as CallbackParams;
      if (!popup) flow = takeFlow(sessionStorage, state);
      // A number is a problem (`> 0` is the shortest test of that: this file has a byte budget).
      if ((params as number) > 0) return finish(INVALID_RESPONSE);
      if ((flow as number) > 0) return finish(flow as number);
      // Acted on only after the state check. Exactly one of token and error is there.
      if (!token) return finish(error == 'access_denied' ? ACCESS_DENIED : INVALID_RESPONSE);
      // The token endpoint is resolved against the page's own address, never a `<base href>` someone
      // injected into the markup; a bad URL throws, into the config_invalid below.
      const { href: url, origin: backendOrigin } = new URL(backend!, cleanUrl);
      if (!backend || (backendOrigin != origin && !(crossOrigin && CROSS_ORIGIN_BACKEND.test(url)))) return finish(CONFIG_INVALID);
      // The button stored a checked return-to; a tampered one still never leaves the origin.
      const target = new URL((flow as FlowRecord).returnTo, cleanUrl);

      // Four attempts: a network failure or a 5xx is tried again after 0.3, 1 and 3 seconds.
      for (const delay of [300, 1000, 3000, 0]) {
        try {
          const answer = await fetch(url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            // (JSON leaves out a state that is undefined: a redirect login posts the token alone.)
            body: JSON.stringify({ access_token: token, state: popup ? state : undefined }),
            redirect: 'error',
            referrerPolicy: 'no-referrer',
          });
          // An empty or non-JSON body is an answer without a response. A refusal's may name
          // the error (`code`), which the callback page then reports.
          const response: unknown = await answer.json().catch(() => null);
          if (answer.ok) {
            // The opener collects the login from the token endpoint: this window is done (if a script
            // opened it; else it shows the success like a redirect login's callback).
            if (popup) close();
            return finish(undefined, response, popup || noRedirect || target.origin != origin ? cleanUrl : target.href);
          }
          // A 409 is the popup relay's: this popup login already has an outcome (its callback
          // address opened again), so the state was used.
          if (answer.status < 500) return finish(answer.status == 409 ? STATE_MISMATCH : BACKEND_REJECTED, response);
        } catch {
          // The network failed (or the token endpoint redirected): try again after a pause.
        }
        // (After the last attempt the pause is 0.)
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
      // No answer, or only 5xx (the server, or itch.io behind it, is down): not a refusal.
      finish(SERVICE_UNAVAILABLE);
    } catch {
      // Storage is disabled, a stored record or the token endpoint address is unreadable.
      finish(CONFIG_INVALID);
    }
  };

  // A prerendered callback delivers when the user actually navigates to it.
  // (`=== true`: an element of the page named `prerendering`, see currentScript, must not make it
  // wait for a navigation that never comes. Shadowed `write` or `querySelector` above fall back
  // to stop().)
  const prerendered = doc as Document & { prerendering?: boolean; onprerenderingchange?: unknown };
  if (prerendered.prerendering === true) prerendered.onprerenderingchange = deliver;
  else void deliver();
}
