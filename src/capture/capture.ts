import { ACCESS_DENIED, BACKEND_REJECTED, CONFIG_INVALID, INVALID_RESPONSE, NETWORK_ERROR } from '../core/errors.js';
import { readCallbackFragment, type CallbackParams } from '../core/fragment.js';
import { takeFlow, type FlowRecord } from '../core/state.js';
import { OUTCOME_KEY, type CaptureOutcome } from './outcome.js';

export interface CaptureOptions {
  /** URL the token is POSTed to (the contract's `data-backend`). Resolved against the page address. */
  backend?: string | undefined;
  /**
   * Stay on the callback page after success (the contract's `data-no-redirect`): the clean
   * callback document then shows the success and fires `itch-login-success`.
   */
  noRedirect?: boolean | undefined;
}

/** A backend on another origin must be https, or http on a loopback address for local development. */
const CROSS_ORIGIN_BACKEND = /^(https:|http:\/\/(localhost|127\.[\d.]+|\[::1\])[:/])/;

/**
 * Reads and clears the implicit-flow response from the address, synchronously, before any other
 * script of the page can run, and then makes sure none ever does: the document is stopped
 * (`window.stop()`), so no later script of it executes. The state is checked and consumed, the
 * token POSTed once to the backend, and the user continues in a clean document: the flow's
 * `return-to` on success, else the callback address without the fragment, where
 * `<itch-oauth-callback>` shows the outcome (see `CaptureOutcome`). The token lives only in
 * this closure.
 *
 * Does nothing when the fragment is not an implicit-flow response, so also on a second call: the
 * first cleared the fragment. (Nothing is returned: after a capture no later script runs anyway.)
 * Size matters here (budget: 1 KiB gzip): the outcome carries error codes as numbers, and
 * `<itch-oauth-callback>` puts them in words.
 *
 * @see https://itch.io/docs/api/oauth
 */
export function captureCallback({ backend, noRedirect }: CaptureOptions = {}): void {
  const { hash, pathname, search, origin } = location;
  const params = readCallbackFragment(hash.slice(1));
  if (!params) return;
  // Absolute: a relative URL would resolve against an injected <base href>.
  history.replaceState(history.state, '', origin + pathname + search);
  stop();
  const cleanUrl = location.href;
  // fetch is taken now, before another script could wrap it (though none will run here now).
  const post = fetch;

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
      const { state } = params as CallbackParams;
      // A popup login (`p.` state, see popup mode): no flow record here (a framed opener's storage
      // is not this one); the backend checks the state, and only the opener can collect.
      const popup = state?.startsWith('p.');
      if (!popup) flow = takeFlow([sessionStorage, localStorage], state);
      // A number is a problem (`> 0` is the shortest test of that: this file has a byte budget).
      if ((params as number) > 0) return finish(INVALID_RESPONSE);
      if ((flow as number) > 0) return finish(flow as number);
      const { access_token: token, error } = params as CallbackParams;
      // Acted on only after the state check. Exactly one of token and error is there.
      if (!token) return finish(error == 'access_denied' ? ACCESS_DENIED : INVALID_RESPONSE);
      // The backend is resolved against the page's own address, never a `<base href>` someone
      // injected into the markup; a bad URL throws, into the config_invalid below.
      const { href: url, origin: backendOrigin } = new URL(backend!, cleanUrl);
      if (!backend || (backendOrigin != origin && !CROSS_ORIGIN_BACKEND.test(url))) return finish(CONFIG_INVALID);
      // The button stored a checked return-to; a tampered one still never leaves the origin.
      const target = new URL((flow as FlowRecord).returnTo ?? '', cleanUrl);

      let status = 0;
      // Four attempts: a network failure or a 5xx is tried again after 0.3, 1 and 3 seconds.
      for (const delay of [300, 1000, 3000, 0]) {
        try {
          const answer = await post(url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(popup ? { access_token: token, state } : { access_token: token }),
            redirect: 'error',
            referrerPolicy: 'no-referrer',
          });
          if (answer.ok) {
            // The opener collects the login from the backend: this window is done.
            if (popup) return close();
            // An empty or non-JSON body is a success without a response.
            const response: unknown = await answer.json().catch(() => null);
            return finish(undefined, response, noRedirect || target.origin != origin ? cleanUrl : target.href);
          }
          status = answer.status;
          if (status < 500) break;
        } catch {
          // The network failed (or the backend redirected): try again after a pause.
        }
        if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      }
      finish(status ? BACKEND_REJECTED : NETWORK_ERROR);
    } catch {
      // Storage is disabled, a stored record or the backend address is unreadable.
      finish(CONFIG_INVALID);
    }
  };

  if ((document as Document & { prerendering?: boolean }).prerendering) {
    document.addEventListener('prerenderingchange', deliver);
  } else {
    void deliver();
  }
}
