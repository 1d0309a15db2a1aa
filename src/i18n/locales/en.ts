// English, the source catalogue: every other locale has exactly these keys and placeholders.
// For translators: see ../README.md (register, glossary, placeholders).
import { COOKIES_BLOCKED, type ItchOAuthErrorCode } from '../../core/errors.js';

/**
 * The words of the login button and of what `login()` draws on the game's page (its Continue
 * button, the code): with `problems`, all that the button-only script file carries.
 */
export const button = {
  login: 'Log in with itch.io',
  cancel: 'Cancel',
  continue: 'Continue with itch.io',
  dismiss: 'Cancel',
  code: 'itch.io login: confirm in its window only if it shows the code {code}.',
};

/**
 * What each error code means to the player: the callback page shows it, and `playerMessage()`
 * gives it in every build, the button-only script file's too (English is never loaded).
 */
export const problems = {
  access_denied: 'You declined the login on itch.io.',
  state_missing: 'This login was not started on this site, so it was not completed.',
  state_mismatch: 'This login was not started here, or it was already used.',
  state_expired: 'The login took longer than 10 minutes.',
  invalid_response: 'itch.io sent back an answer that could not be read.',
  backend_rejected: "This site's server refused the login.",
  network_error: "This site's server could not be reached.",
  popup_blocked: 'The itch.io window was blocked by the browser.',
  popup_closed: 'The itch.io window was closed before the login finished.',
  config_invalid: 'Logging in with itch.io is not set up correctly on this site.',
  timeout: 'itch.io did not answer in time: please log in again.',
  not_owner: 'You need to own this game on itch.io to continue.',
  popup_unverified: 'The itch.io window could not be tied to the page that opened it, so the login stopped for your safety.',
  aborted: 'The login was cancelled.',
  // (Also a 429 from a rate limit, whose Retry-After is about a minute.)
  service_unavailable: "This site's server or itch.io is not answering right now. Try again in a minute.",
  cookies_blocked: COOKIES_BLOCKED,
} satisfies Record<ItchOAuthErrorCode, string>;

/** The callback page's own words, beside the problems'. */
export const callback = {
  idle: 'No itch.io login in progress.',
  pending: 'Logging you in with itch.io…',
  success: "You're logged in with itch.io.",
  retry: 'Try again',
  close: 'Close',
  store: 'Get it on itch.io',
  next_not_owner: 'Get it on itch.io, or log out there to use the account that owns it.',
  next_backend_rejected: 'To use another itch.io account, log out on itch.io first.',
  next_network_error: 'Try again in a few minutes.',
  back: 'Back to the site',
  state_used:
    "This login link works only once, in the tab where the login started, so it did nothing here. If you finished logging in there, you're already logged in.",
};

/** The elements' words (the button, the callback page, the code shown on the game's page). */
export const widget = /* @__PURE__ */ Object.assign({}, button, problems, callback);
